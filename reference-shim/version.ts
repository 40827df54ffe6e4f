// Kept equal to package.json's version (test/reference-shim/cli-args.test.ts checks it); a constant keeps --version
// from reading files at start-up.
export const SHIM_VERSION = '0.1.0';
