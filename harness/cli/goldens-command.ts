// `yume-conformance goldens [--update --reason "..."] [--scenario ID]...`: regenerates the golden transcripts
// from the bundled reference shim. Without --update it only compares (exit 1 when a committed golden is out
// of date); with --update it writes the changed files, prints a readable diff and logs the reason in
// transcripts/GOLDENS.md. A scenario the reference shim fails is never written.
import type { Command } from 'commander';
import { CLAUDE_GOLDENS_PRESET, computeClaudeGoldens } from '../golden/regenerate/claude-goldens.js';
import { changes, computeGoldens, type GoldenUpdate, writeGoldens } from '../golden/regenerate/goldens.js';
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

/** What is wrong with the flags, as the line to print; undefined when they are usable. */
function flagsProblem(flags: GoldensFlags, jobs: number): string | undefined {
  if (flags.update && !flags.reason?.trim())
    return 'yume-conformance goldens: --update needs --reason "why the goldens change" (it is recorded in transcripts/GOLDENS.md)\n';
  if (!Number.isInteger(jobs) || jobs < 1) return `yume-conformance goldens: --jobs must be a positive whole number\n`;
  if (flags.from !== undefined && flags.from !== CLAUDE_GOLDENS_PRESET)
    return `yume-conformance goldens: --from ${flags.from} is not known — fix: use --from ${CLAUDE_GOLDENS_PRESET} (or leave it out for the reference shim)\n`;
  return undefined;
}

/** The updates the goldens' source (the reference shim, or Claude Code with --from) makes, and who made them. */
async function computeUpdates(
  flags: GoldensFlags,
  jobs: number,
): Promise<{ updates: GoldenUpdate[]; source: string; recordedWith: string }> {
  if (!flags.from)
    return {
      updates: await computeGoldens({ scenarios: flags.scenario ?? [], jobs }),
      source: 'the reference shim',
      recordedWith: '',
    };
  const recorded = await computeClaudeGoldens({
    ...(flags.scenario ? { scenarios: flags.scenario } : {}),
    ...(flags.shim ? { shim: flags.shim } : {}),
    jobs,
  });
  return {
    updates: recorded.updates,
    source: 'Claude Code',
    recordedWith: ` (recorded from Claude Code ${recorded.version ?? 'of unknown version'})`,
  };
}

/** Prints one scenario's update: failing, up to date, or its diffs. */
function printUpdate(update: GoldenUpdate, writing: boolean, source: string): 'broken' | 'current' | 'stale' {
  if (update.problems.length > 0) {
    process.stdout.write(
      `✘ ${update.scenario} (${update.provider}): ${source} does not pass it, golden not written:\n    ${update.problems.join('\n    ')}\n`,
    );
    return 'broken';
  }
  if (!changes(update)) {
    process.stdout.write(`  ${update.scenario}: up to date\n`);
    return 'current';
  }
  process.stdout.write(`${writing ? '✎' : '≠'} ${update.scenario} (${update.provider}):\n`);
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
    process.stdout.write(`  ${name}: no longer produced${writing ? ', removed' : ''}\n`);
  return 'stale';
}

async function goldensAction(flags: GoldensFlags): Promise<void> {
  const jobs = flags.jobs === undefined ? 2 : Number(flags.jobs);
  const problem = flagsProblem(flags, jobs);
  if (problem) {
    process.stderr.write(problem);
    process.exitCode = EXIT_USAGE;
    return;
  }
  let computed: Awaited<ReturnType<typeof computeUpdates>>;
  try {
    computed = await computeUpdates(flags, jobs);
  } catch (error) {
    if (!isKnownError(error)) throw error;
    const failure = failureOf('yume-conformance goldens', error);
    process.stderr.write(failure.line);
    process.exitCode = failure.exitCode;
    return;
  }
  const { updates, source, recordedWith } = computed;
  const outcomes = updates.map((update) => printUpdate(update, flags.update === true, source));
  const stale = outcomes.filter((outcome) => outcome === 'stale').length;
  const broken = outcomes.filter((outcome) => outcome === 'broken').length;
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
