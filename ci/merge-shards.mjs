#!/usr/bin/env node
// Joins the shards of each operating system before ci/aggregate.mjs joins the operating systems. Reads every
// run-info.json under --dir that names a shard (written by ci/run-suite.mjs with YUME_CI_SHARD=i/n), groups
// them by OS, and runs `yume-conformance merge-reports --shards` on each group's JSON reports, which refuses
// shards of different suite versions, shims or selections, a missing shard and an interrupted one. Each OS
// gets a folder merged-<OS>/ under --dir with report.json, junit.xml, report.html and a run-info.json whose
// exit code is the merged suite's (2 when the shards could not be merged). aggregate.mjs then reads those
// and skips the shards' own run-info.json files.
//
//   node ci/merge-shards.mjs --dir downloaded-artifacts
//
// The yume-conformance package is the one the shards ran (run-info.json's "package"), through npx; set
// YUME_CONFORMANCE_CLI to a cli.js to use that instead. Exit 0 when every group was merged (whatever its
// verdict: aggregate.mjs gives that), 1 when one could not be, 2 on usage errors.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { locateNpxCli } from './lib/npx.mjs';
import { runWithTimeout } from './lib/run-with-timeout.mjs';

const MERGE_TIMEOUT_MS = 10 * 60_000;

function findShardInfos(dir) {
  const found = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'run-info.json') {
        try {
          const info = JSON.parse(readFileSync(full, 'utf8'));
          if (typeof info.shard === 'string') found.push({ file: full, info });
        } catch {
          // not JSON: aggregate.mjs reports it
        }
      }
    }
  };
  walk(dir);
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

/** argv that runs `yume-conformance merge-reports ...` with this Node. */
function mergeCommand(packageSpec, args) {
  if (process.env.YUME_CONFORMANCE_CLI) return [process.env.YUME_CONFORMANCE_CLI, 'merge-reports', ...args];
  const npx = locateNpxCli(process.env);
  if (!npx)
    throw new Error(`npm's npx-cli.js was not found next to ${process.execPath}; install Node with actions/setup-node`);
  return [npx, '--yes', '--package', packageSpec, '--', 'yume-conformance', 'merge-reports', ...args];
}

async function mergeGroup(dir, os, members) {
  const out = path.join(dir, `merged-${os}`);
  mkdirSync(out, { recursive: true });
  const first = members[0].info;
  const reports = members.map(({ file, info }) => path.join(path.dirname(file), info.reports?.json ?? 'report.json'));
  const files = { junit: 'junit.xml', html: 'report.html', json: 'report.json' };
  const args = [
    '--shards',
    ...reports,
    '--reporter',
    'human',
    '--reporter',
    `junit:${path.join(out, files.junit)}`,
    '--reporter',
    `html:${path.join(out, files.html)}`,
    '--out',
    path.join(out, files.json),
  ];
  let stderr = '';
  const result = await runWithTimeout(process.execPath, mergeCommand(first.package ?? 'yume-conformance', args), {
    timeoutMs: MERGE_TIMEOUT_MS,
    onStdout: (chunk) => process.stdout.write(chunk),
    onStderr: (chunk) => {
      stderr += chunk.toString('utf8');
      process.stderr.write(chunk);
    },
  });
  const exitCode = result.exitCode ?? 2;
  // 3: merged, no run failed, but some run is inconclusive (the machine could not decide).
  const merged = exitCode === 0 || exitCode === 1 || exitCode === 3;
  const info = {
    os,
    arch: first.arch,
    node: first.node,
    package: first.package,
    shim: first.shim,
    reports: files,
    shards: members.map(({ info }) => info.shard),
    exitCode,
    ...(merged
      ? {}
      : { error: `the shards could not be merged: ${stderr.trim().split('\n').at(-1) ?? `exit ${exitCode}`}` }),
  };
  writeFileSync(path.join(out, 'run-info.json'), `${JSON.stringify(info, null, 2)}\n`);
  return merged;
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({ options: { dir: { type: 'string' } }, strict: true }));
  } catch (error) {
    process.stderr.write(`[yume-conformance] merge-shards: ${error.message}\n`);
    return 2;
  }
  if (!values.dir) {
    process.stderr.write('[yume-conformance] merge-shards: --dir DIR is required\n');
    return 2;
  }
  let infos;
  try {
    infos = findShardInfos(values.dir);
  } catch (error) {
    process.stderr.write(`[yume-conformance] merge-shards: cannot read ${values.dir}: ${error.message}\n`);
    return 1;
  }
  const groups = new Map();
  for (const entry of infos) {
    const os = String(entry.info.os ?? '?');
    groups.set(os, [...(groups.get(os) ?? []), entry]);
  }
  let ok = true;
  for (const [os, members] of groups) {
    process.stdout.write(`[yume-conformance] merging ${members.length} shard(s) of ${os}\n`);
    ok = (await mergeGroup(values.dir, os, members)) && ok;
  }
  if (groups.size === 0) process.stdout.write('[yume-conformance] no shards to merge\n');
  return ok ? 0 : 1;
}

process.exitCode = await main();
