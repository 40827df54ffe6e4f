// Finds npm's npx-cli.js next to this Node, so the CI scripts run `npx` with this Node on every OS (spawning
// `npx.cmd` on Windows needs a shell, which Node refuses for .cmd files without one since 20.12.2).
import { existsSync } from 'node:fs';
import path from 'node:path';

/** `<dir>/node_modules/npm` on Windows, `<prefix>/lib/node_modules/npm` elsewhere; undefined when absent. */
export function locateNpxCli(env) {
  if (env.YUME_CONFORMANCE_NPX_CLI) return env.YUME_CONFORMANCE_NPX_CLI;
  const candidates = [];
  if (env.npm_execpath && /npm-cli\.js$/.test(env.npm_execpath)) {
    candidates.push(path.join(path.dirname(env.npm_execpath), 'npx-cli.js'));
  }
  const nodeDir = path.dirname(process.execPath);
  candidates.push(path.join(nodeDir, 'node_modules', 'npm', 'bin', 'npx-cli.js'));
  candidates.push(path.join(nodeDir, '..', 'lib', 'node_modules', 'npm', 'bin', 'npx-cli.js'));
  return candidates.find((candidate) => existsSync(candidate));
}
