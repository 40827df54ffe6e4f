// The one program behind every Wine stand-in (built into a Windows executable by
// scripts/platforms-wine-setup.mjs): it acts as the program its file is named after.
const path = require('node:path');
const { bashStandIn } = require('./bash.cjs');
const { gitStandIn } = require('./git.cjs');
const { powershellStandIn } = require('./powershell.cjs');

const name = path.win32.basename(process.execPath).toLowerCase();
const argv = process.argv.slice(2);
if (name === 'git.exe') process.exitCode = gitStandIn(argv);
else if (name === 'bash.exe') bashStandIn(argv).then((code) => process.exit(code));
else if (name === 'powershell.exe') powershellStandIn(argv).then((code) => process.exit(code));
else {
  process.stderr.write(`Wine stand-in: no program is named ${name}\n`);
  process.exitCode = 1;
}
