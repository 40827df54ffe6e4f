// Rewrites the rule table in README.md (between <!-- rules:start --> and <!-- rules:end -->) from the catalog.
//   node scripts/rules-table.mjs          rewrite README.md
//   node scripts/rules-table.mjs --check  exit 1 when the README table is stale
// The catalog is TypeScript, so it is bundled with esbuild into a temporary module first.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const readmePath = path.join(root, 'README.md');
const dir = mkdtempSync(path.join(tmpdir(), 'yume-rules-table-'));
try {
  const outfile = path.join(dir, 'rules-table.mjs');
  await build({
    stdin: {
      contents: `export { allRules } from './harness/rules/catalog.ts';\nexport { renderRulesMarkdown, replaceRulesSection } from './harness/rules/markdown.ts';\nexport { documentSections } from './harness/rules/sources.ts';\n`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  const { allRules, documentSections, renderRulesMarkdown, replaceRulesSection } = await import(
    pathToFileURL(outfile).href
  );
  const sections = documentSections(readFileSync(path.join(root, 'docs', 'protocol.md'), 'utf8'));
  const readme = readFileSync(readmePath, 'utf8');
  const updated = replaceRulesSection(readme, renderRulesMarkdown(allRules(), sections));
  if (process.argv.includes('--check')) {
    if (updated !== readme) {
      process.stderr.write('README.md rule table is stale: run `node scripts/rules-table.mjs` and commit README.md.\n');
      process.exitCode = 1;
    } else process.stdout.write('README.md rule table is up to date.\n');
  } else if (updated !== readme) {
    writeFileSync(readmePath, updated);
    process.stdout.write('README.md rule table updated.\n');
  } else process.stdout.write('README.md rule table already up to date.\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
