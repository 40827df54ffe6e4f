// Installs what `npm run test:platforms` needs (R20). The macOS paths need nothing beyond Linux's `ps`
// (procps) and, for a process table of the lane's own, `unshare` (util-linux) run as root; each is checked here
// so a missing one is named before the tests start. The Windows lane's setup (Wine, Windows Node) lives in
// scripts/platforms-wine-setup.mjs and runs when that file is there.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const started = Date.now();
if (process.platform !== 'linux') throw new Error("test:platforms runs the other platforms' paths on Linux only");
for (const [program, args, why] of [
  ['ps', ['-A', '-o', 'pid=,lstart='], 'the macOS paths read the process table through ps (procps)'],
]) {
  try {
    execFileSync(program, args, { stdio: 'ignore' });
  } catch (error) {
    throw new Error(`test:platforms needs ${program}: ${why} (${error.message.split('\n')[0]})`);
  }
}
console.log('test:platforms setup: ps for the macOS paths');

const wineSetup = fileURLToPath(new URL('./platforms-wine-setup.mjs', import.meta.url));
if (existsSync(wineSetup)) {
  console.log('test:platforms setup: the Windows lane (scripts/platforms-wine-setup.mjs) ...');
  execFileSync(process.execPath, [wineSetup], { stdio: 'inherit' });
} else console.log('test:platforms setup: no scripts/platforms-wine-setup.mjs, so no Windows lane to set up');
console.log(`test:platforms setup: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
