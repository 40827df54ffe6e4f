// The one base of the project's own errors, shared by harness/ and reference-shim/ (this folder is a leaf
// both may import). Like execa's final errors, each error keeps what caused it as the standard ES2022
// `cause`, names its class in `name` (so a log line or `String(error)` says which error it is), and carries a
// stable `code`: callers classify an error by class or code, never by the words of its message.

/** Options every project error accepts: the error it wraps, if any. */
export interface YumeErrorOptions {
  cause?: unknown;
}

export class YumeError extends Error {
  // Each subclass sets its own name as a literal: class names do not survive bundling (esbuild renames a
  // class whose name collides with another module's), so `new.target.name` would not be stable.
  override name = 'YumeError';
  /** Stable, machine-readable: what kind of failure this is, whatever the message says. */
  readonly code: string;

  constructor(code: string, message: string, options: YumeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/** The message of anything thrown, for a one-line report (the full error stays reachable as `cause`). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
