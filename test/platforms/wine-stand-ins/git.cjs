// Stand-in for git under Wine (there is no git for Windows there). It does only what the runner calls:
// `git [-c key=value]... init --quiet --template= DIR` (harness/runner/git-workspace.ts), making the empty
// repository Git for Windows makes with an empty template; the runner writes the commit itself
// (git-objects.ts). Anything else is refused, so a new git call in the runner cannot pass unnoticed.
const fs = require('node:fs');
const path = require('node:path');

function refuse(argv) {
  process.stderr.write(`git (Wine stand-in): only \`git init\` is available, not: git ${argv.join(' ')}\n`);
  return 129;
}

/** Runs the stand-in on `argv` (without the program); returns the exit code. */
function gitStandIn(argv) {
  const config = new Map();
  let index = 0;
  while (argv[index] === '-c') {
    const [key, ...value] = (argv[index + 1] ?? '').split('=');
    config.set(key.toLowerCase(), value.join('='));
    index += 2;
  }
  if (argv[index] !== 'init') return refuse(argv);
  const rest = argv.slice(index + 1);
  const dirs = rest.filter((arg) => !arg.startsWith('-'));
  const options = rest.filter((arg) => arg.startsWith('-'));
  if (dirs.length !== 1 || options.some((option) => option !== '--quiet' && option !== '--template='))
    return refuse(argv);
  const gitDir = path.resolve(dirs[0], '.git');
  for (const folder of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags'])
    fs.mkdirSync(path.join(gitDir, folder), { recursive: true });
  const branch = config.get('init.defaultbranch') || 'master';
  fs.writeFileSync(path.join(gitDir, 'HEAD'), `ref: refs/heads/${branch}\n`);
  // What Git for Windows writes on NTFS: no file modes, no symlinks, names compared without case.
  fs.writeFileSync(
    path.join(gitDir, 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = false\n\tbare = false\n\tlogallrefupdates = true\n\tsymlinks = false\n\tignorecase = true\n',
  );
  if (!options.includes('--quiet')) process.stdout.write(`Initialized empty Git repository in ${gitDir}${path.sep}\n`);
  return 0;
}

module.exports = { gitStandIn };
