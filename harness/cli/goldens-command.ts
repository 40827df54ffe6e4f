// `yume-conformance goldens [--update --reason "..."] [--scenario ID]...`: regenerates the golden transcripts
// from the bundled reference shim. Without --update it only compares (exit 1 when a committed golden is out
// of date); with --update it writes the changed files, prints a readable diff and logs the reason in
// transcripts/GOLDENS.md. A scenario the reference shim fails is never written.
import type { Command } from 'commander';
import { CLAUDE_GOLDENS_PRESET, computeClaudeGoldens } from '../goldens/claude-goldens.js';
import { changes, computeGoldens, type GoldenUpdate, writeGoldens } from '../goldens/goldens.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, failureOf, isKnownError } from './exit-codes.js';

interface GoldensFlags {
  update?: boolean;
  from?: string;
  shim?: string;
  reason?: string;
  scenario?: string[];
  jobs?: string;
}

const collectList = (value: string, previous: string[] | undefined) => [
  ...(previous ?? []),
  ...value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
];

async function goldensAction(flags: GoldensFlags): Promise<void> {
  if (flags.update && !flags.reason?.trim()) {
    process.stderr.write(
      'yume-conformance goldens: --update needs --reason "why the goldens change" (it is recorded in transcripts/GOLDENS.md)\n',
    );
    process.exitCode = EXIT_USAGE;
    return;
  }
  const jobs = flags.jobs === undefined ? 2 : Number(flags.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) {
    process.stderr.write(`yume-conformance goldens: --jobs must be a positive whole number\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  if (flags.from !== undefined && flags.from !== CLAUDE_GOLDENS_PRESET) {
    process.stderr.write(
      `yume-conformance goldens: --from ${flags.from} is not known — fix: use --from ${CLAUDE_GOLDENS_PRESET} (or leave it out for the reference shim)\n`,
    );
    process.exitCode = EXIT_USAGE;
    return;
  }
  let updates: GoldenUpdate[];
  let source = 'the reference shim';
  let recordedWith = '';
  try {
    if (flags.from) {
      const recorded = await computeClaudeGoldens({
        ...(flags.scenario ? { scenarios: flags.scenario } : {}),
        ...(flags.shim ? { shim: flags.shim } : {}),
        jobs,
      });
      updates = recorded.updates;
      source = 'Claude Code';
      recordedWith = ` (recorded from Claude Code ${recorded.version ?? 'of unknown version'})`;
    } else updates = await computeGoldens({ scenarios: flags.scenario ?? [], jobs });
  } catch (error) {
    if (!isKnownError(error)) throw error;
    const failure = failureOf('yume-conformance goldens', error);
    process.stderr.write(failure.line);
    process.exitCode = failure.exitCode;
    return;
  }
  let stale = 0;
  let broken = 0;
  for (const update of updates) {
    if (update.problems.length > 0) {
      broken += 1;
      process.stdout.write(
        `✘ ${update.scenario} (${update.provider}): ${source} does not pass it, golden not written:\n    ${update.problems.join('\n    ')}\n`,
      );
      continue;
    }
    if (!changes(update)) {
      process.stdout.write(`  ${update.scenario}: up to date\n`);
      continue;
    }
    stale += 1;
    process.stdout.write(`${flags.update ? '✎' : '≠'} ${update.scenario} (${update.provider}):\n`);
    for (const [name, diff] of update.diffs) {
      if (diff)
        process.stdout.write(
          `  ${name}\n${diff
            .split('\n')
            .map((line) => `    ${line}`)
            .join('\n')}\n`,
        );
    }
    for (const name of update.removed)
      process.stdout.write(`  ${name}: no longer produced${flags.update ? ', removed' : ''}\n`);
  }
  if (flags.update) {
    const written = writeGoldens(updates, `${flags.reason!}${recordedWith}`);
    process.stdout.write(
      `${written.length} scenario(s) updated${written.length ? ', reason logged in transcripts/GOLDENS.md' : ''}; ${broken} not written (${source} fails)\n`,
    );
    process.exitCode = broken > 0 ? EXIT_FAILED : EXIT_OK;
  } else {
    process.stdout.write(
      `${stale} scenario(s) out of date, ${broken} failing with ${source}${stale ? ' — run `yume-conformance goldens --update --reason "..."`' : ''}\n`,
    );
    process.exitCode = stale > 0 || broken > 0 ? EXIT_FAILED : EXIT_OK;
  }
}

/** Registers `yume-conformance goldens`. */
export function registerGoldensCommand(program: Command): void {
  program
    .command('goldens')
    .description('compare (default) or regenerate (--update) the golden transcripts from the bundled reference shim')
    .option('--update', 'write the regenerated goldens')
    .option('--reason <text>', 'why the goldens change (required with --update; logged in transcripts/GOLDENS.md)')
    .option('--scenario <id>', 'only this scenario; repeatable', collectList)
    .option('--jobs <n>', 'scenarios at a time (default 2)')
    .option(
      '--from <preset>',
      `record another program's goldens instead: ${CLAUDE_GOLDENS_PRESET} runs real Claude Code over its preset's list into transcripts/<id>/claude-code.jsonl`,
    )
    .option('--shim <path>', "with --from: the program to run (default: the preset's, on PATH)")
    .action(goldensAction);
}
