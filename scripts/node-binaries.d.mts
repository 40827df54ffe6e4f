// Types for node-binaries.mjs, so TypeScript tests can call it.
export const NODE_BINARY_PINS: Record<string, string>;
export function ensureNodeBinary(major: string | number, options?: { log?: (line: string) => void }): string | undefined;
