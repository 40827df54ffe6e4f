// Installs what `npm run test:platforms` needs (R20). The macOS paths need nothing beyond Linux's `ps`
// (procps) and, for a process table of the lane's own, `unshare` (util-linux) run as root; each is checked here
// so a missing one is named before the tests start. The Windows lane under Wine (which `npm run test:platforms`
// runs after the macOS lane, and `npm run test:wine` alone) needs Debian's wine64, Windows Node and the stand-ins:
// scripts/platforms-wine-setup.mjs installs each once, as root.
import { execFileSync } from 'node:child_process';
import { ensureWinePlatform } from './platforms-wine-setup.mjs';

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
try {
  await ensureWinePlatform();
} catch (error) {
  console.error(`test:platforms setup: the Windows lane: ${/** @type {Error} */ (error).message}`);
  process.exit(1);
}

console.log(`test:platforms setup: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
