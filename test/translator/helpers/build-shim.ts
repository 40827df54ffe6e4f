// The shim the translator tests run: the bundled reference shim (dist/yume-shim.cjs, built by the global
// test setup), whose provider registry routes gemini-cli / codex-cli / claude-cli to providers/cli/.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export async function translatorShim(): Promise<string> {
  const shim = path.join(ROOT, 'dist', 'yume-shim.cjs');
  if (!existsSync(shim)) throw new Error(`${shim} is missing: run \`npm run build\``);
  return shim;
}
