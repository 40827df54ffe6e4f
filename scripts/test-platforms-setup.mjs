// Installs what `npm run test:platforms` needs (R20). The macOS paths need nothing beyond Linux's `ps`
// (procps) and, for a process table of the lane's own, `unshare` (util-linux) run as root; each is checked here
// so a missing one is named before the tests start. The Windows lane under Wine is `npm run test:wine`, with its
// own setup (scripts/platforms-wine-setup.mjs), run by hand until its runs are stable.
import { execFileSync } from 'node:child_process';

const started = Date.now();
if (process.platform !== 'linux') throw new Error("test:platforms runs the other platforms' paths on Linux only");
/** @type {[string, string[], string][]} */
const needed = [['ps', ['-A', '-o', 'pid=,lstart='], 'the macOS paths read the process table through ps (procps)']];
for (const [program, args, why] of needed) {
  try {
    execFileSync(program, args, { stdio: 'ignore' });
  } catch (error) {
    throw new Error(`test:platforms needs ${program}: ${why} (${/** @type {Error} */ (error).message.split('\n')[0]})`);
  }
}
console.log('test:platforms setup: ps for the macOS paths');

console.log(`test:platforms setup: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
