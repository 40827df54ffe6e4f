// yume-shim: the reference shim of yume-conformance (see cli/run.ts for the flow).
import { runShim } from './cli/run.js';

runShim(process.argv.slice(2), process.env).catch((error: unknown) => {
  // Only a bug gets here; keep stdout clean and say what happened.
  process.stderr.write(`yume-shim: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(70);
});
