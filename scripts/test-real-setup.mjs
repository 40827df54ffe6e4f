// Installs what `npm run test:real` needs (R18): the pinned official CLIs into the cache folder, Debian's
// chromium when it is missing (as root, through apt-get), and an unprivileged user for the tests that must
// also run as one. Each step says what it did; a step that cannot be done is an error, not a silent skip.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureRealProgram, REAL_PROGRAM_PINS } from './real-programs.mjs';

export const UNPRIVILEGED_USER = 'yume-real';

/**
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args) {
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

for (const name of Object.keys(REAL_PROGRAM_PINS))
  console.log(`test:real setup: ${name} at ${ensureRealProgram(name)}`);

const isRoot = process.getuid?.() === 0;
if (process.platform === 'linux') {
  if (!existsSync('/usr/bin/chromium')) {
    if (!isRoot) throw new Error('test:real needs Debian chromium (/usr/bin/chromium): apt-get install chromium');
    console.log('test:real setup: installing Debian chromium ...');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  }
  console.log('test:real setup: chromium at /usr/bin/chromium');
  if (isRoot) {
    try {
      execFileSync('id', ['-u', UNPRIVILEGED_USER], { stdio: 'ignore' });
    } catch {
      run('useradd', ['--create-home', '--shell', '/bin/bash', UNPRIVILEGED_USER]);
    }
    console.log(`test:real setup: unprivileged user ${UNPRIVILEGED_USER}`);
  }
}
