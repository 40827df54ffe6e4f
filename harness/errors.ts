// Errors of the harness that several areas throw. Each has a stable `code` (common/errors.ts), which the
// command line maps to an exit code (harness/cli/exit-codes.ts) instead of reading the message.
import { YumeError, type YumeErrorOptions } from '../common/errors.js';

/** Bad options or arguments (unknown provider, scenario or reporter, a malformed --env): the CLI exits 2. */
export class UsageError extends YumeError {
  override name = 'UsageError';
  constructor(message: string, options?: YumeErrorOptions) {
    super('USAGE', message, options);
  }
}
