// Injected into fully bundled ESM outputs: CommonJS code inside the bundle may call require().
import { createRequire } from 'node:module';
export const require = createRequire(import.meta.url);
