// The package's own root, whether the code runs from sources (harness/...) or from the bundle (dist/): the
// runner finds dist/ and transcripts/ from it, the drift command the pinned data.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest folder above `from` whose package.json is yume-conformance's. */
export function findPackageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = path.resolve(from);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'yume-conformance') return dir;
      } catch {
        // an unreadable package.json is not ours; keep looking upwards
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the yume-conformance package above ${from}`);
    dir = parent;
  }
}
