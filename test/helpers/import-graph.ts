// The project's import graph, read with the TypeScript compiler's own pre-processor (ts.preProcessFile:
// every import, export-from and import() with its specifier), for the boundary tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import ts from 'typescript';

export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ImportEdge {
  /** The importing file, relative to the repository root with forward slashes. */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** The imported file (relative, forward slashes) for a relative specifier; undefined for a package. */
  to?: string;
}

/** The files matching `patterns` (relative to the repository root, sorted). */
export function sourceFiles(patterns: string[]): string[] {
  return globSync(patterns, { cwd: REPOSITORY_ROOT, ignore: ['**/node_modules/**', '**/*.d.ts'] }).sort();
}

/** `./x.js` written in TypeScript source means `./x.ts`; a folder import means its index. */
function resolveRelative(from: string, specifier: string): string {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (/\.(js|mjs|cjs)$/.test(joined)) {
    const typescript = joined
      .replace(/\.js$/, '.ts')
      .replace(/\.mjs$/, '.mts')
      .replace(/\.cjs$/, '.cts');
    return sourceFiles([typescript]).length > 0 ? typescript : joined;
  }
  if (/\.[cm]?ts$|\.json$/.test(joined)) return joined;
  return `${joined}/index.ts`;
}

/** Every import of every file in `files`. */
export function importEdges(files: string[]): ImportEdge[] {
  return files.flatMap((from) => {
    const text = readFileSync(path.join(REPOSITORY_ROOT, from), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    return importedFiles.map(({ fileName: specifier }) =>
      specifier.startsWith('.') ? { from, specifier, to: resolveRelative(from, specifier) } : { from, specifier },
    );
  });
}

/** The import circles among `files` (strongly connected components of more than one file, or a self-import). */
export function importCircles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.to === undefined) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; children: string[]; position: number }> = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, children: next.get(node) ?? [], position: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.position < frame.children.length) {
        const child = frame.children[frame.position]!;
        frame.position += 1;
        if (!index.has(child)) enter(child);
        else if (onStack.has(child)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfImport = (next.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfImport) circles.push(component.sort());
      }
    }
  }
  return circles;
}
