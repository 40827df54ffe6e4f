// The argv corpus of the differential test: every argv the reference translators build over all
// scenarios, permission modes, resume and stdin-prompt variants, reduced to one argv per shape (the
// prompt's text and the workspace path vary, the shape does not), plus argv known to be refused.
import path from 'node:path';
import { isCompactPrompt } from '../../common/compact-command.js';
import type { CorpusEntry } from '../../harness/drift/differential.js';
import { loadAllScenarios } from '../../harness/mock/scenario/scenario-loader.js';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import { CLAUDE_CLI, claudeArgs } from '../../reference-shim/providers/cli/claude-cli.js';
import type { ArgsInput, CliDefinition } from '../../reference-shim/providers/cli/cli-provider.js';
import { CODEX_CLI, codexArgs } from '../../reference-shim/providers/cli/codex-cli.js';
import { COPILOT_CLI, copilotArgs } from '../../reference-shim/providers/cli/copilot-cli.js';
import { GEMINI_CLI, geminiArgs } from '../../reference-shim/providers/cli/gemini-cli.js';
import { SPEC_MODELS } from '../translator/helpers/cli-run.js';

const BUILDERS: Record<OfficialCliName, (input: ArgsInput) => string[]> = {
  gemini: geminiArgs,
  codex: codexArgs,
  claude: claudeArgs,
  copilot: copilotArgs,
};
/** The translators' definitions: a CLI that does not compact on `/compact` never receives it as a prompt. */
const DEFINITIONS: Record<OfficialCliName, CliDefinition> = {
  gemini: GEMINI_CLI,
  codex: CODEX_CLI,
  claude: CLAUDE_CLI,
  copilot: COPILOT_CLI,
};

/** The modes a run can ask for (scenarios, the spec invocation) and those a persistent shim can switch to. */
const PERMISSION_MODES = ['default', 'auto', 'deny', 'interactive', 'acceptEdits', 'bypassPermissions', 'plan'];

/** Stand-ins in the committed corpus: the differential test puts the real workspace and session id there. */
export const CWD_PLACEHOLDER = '{cwd}';
export const SESSION_PLACEHOLDER = '{session}';
/** A new session's id, for a CLI that lets its caller name it (copilot --session-id): a fresh UUID per run. */
export const NEW_SESSION_PLACEHOLDER = '{new-session}';
/** A file of the run's own (copilot --usage-output-file). */
export const WORK_FILE_PLACEHOLDER = '{work-file}';

/** Argv the pinned CLIs refuse, each with the reason it is in the corpus. */
const KNOWN_BAD: Record<OfficialCliName, CorpusEntry[]> = {
  gemini: [
    { argv: ['--output-format=stream-json', '--bogus-flag', '--prompt=hi'], why: 'an unknown flag' },
    {
      argv: ['--output-format=stream-json', '--approval-mode=auto', '--prompt=hi'],
      why: 'an approval mode gemini lacks',
    },
    {
      argv: ['--output-format=stream-json', '--yolo', '--approval-mode=yolo', '--prompt=hi'],
      why: 'conflicting flags',
    },
  ],
  codex: [
    { argv: ['exec', '--json', '--skip-git-repo-check', '--full-auto', '--', 'hi'], why: 'the flag 0.169 removed' },
    {
      argv: ['exec', '--json', '--skip-git-repo-check', '--sandbox=none', '--', 'hi'],
      why: 'a sandbox mode codex lacks',
    },
    {
      argv: ['exec', '--json', '--', 'hi'],
      why: 'outside a git repository without --skip-git-repo-check',
      outsideGit: true,
    },
    { argv: ['exec', '--json', '--', 'hi'], why: 'inside a git repository without --skip-git-repo-check' },
    {
      argv: [
        'exec',
        '--json',
        '--skip-git-repo-check',
        'resume',
        '--sandbox=read-only',
        SESSION_PLACEHOLDER,
        '--',
        'hi',
      ],
      why: 'an exec option after resume',
    },
    { argv: ['exec', '--json', '--skip-git-repo-check', '-rf x'], why: 'a flag-like prompt before --' },
  ],
  claude: [
    { argv: ['-p', '--output-format=stream-json', '--verbose', '--bogus', '--', 'hi'], why: 'an unknown flag' },
    { argv: ['-p', '--output-format=stream-json', '--', 'hi'], why: 'stream-json without --verbose' },
    {
      argv: ['-p', '--output-format=stream-json', '--verbose', '--permission-mode=yolo', '--', 'hi'],
      why: 'a permission mode claude lacks',
    },
    {
      argv: ['-p', '--output-format=stream-json', '--verbose', '--dangerously-skip-permissions', '--', 'hi'],
      why: 'bypass as root without IS_SANDBOX (accepted for other users)',
    },
  ],
  copilot: [
    { argv: ['--output-format=json', '--bogus', '--prompt=hi'], why: 'an unknown flag beside a prompt' },
    { argv: ['--output-format=json', '--bogus'], why: 'an unknown flag' },
    { argv: ['--output-format=xml', '--prompt=hi'], why: 'an output format copilot lacks' },
    { argv: ['--output-format=json', '-p', '-rf x'], why: 'a flag-like prompt after -p' },
    { argv: ['--output-format=json', 'hello'], why: 'a prompt without -p' },
    { argv: ['--output-format=json', '--prompt=hi', '--resume=no-such-session'], why: 'an unknown session' },
    { argv: ['--output-format=json', '--session-id=not-a-uuid', '--prompt=hi'], why: 'a session id that is no UUID' },
    { argv: ['--output-format=json', '--prompt=hi'], why: 'a BYOK run without a model' },
    {
      argv: ['--output-format=json', '--model=claude-sonnet-4-5', '--prompt=/compact'],
      why: '/compact on a new session (nothing to compact)',
    },
  ],
};

function shapeOf(argv: string[], prompt: string): string {
  return JSON.stringify(
    argv.map((argument) => argument.split(prompt).join(prompt.startsWith('-') ? '{-prompt}' : '{prompt}')),
  );
}

/** The corpus for one CLI: the translators' argv (one per shape), then the known-bad ones. */
export function buildArgvCorpus(cli: OfficialCliName, transcripts: string): CorpusEntry[] {
  const prompts = new Set<string>();
  const passesCompact = DEFINITIONS[cli].compactsOnCommand === true;
  for (const scenario of loadAllScenarios(transcripts))
    for (const turn of scenario.turns) {
      const prompt = turn.prompt ?? 'hi';
      if (passesCompact || !isCompactPrompt(prompt)) prompts.add(prompt);
    }
  // A prompt that looks like flags: the case the translators guard with `--` or `--prompt=`.
  prompts.add('-rf --help');
  const seen = new Set<string>();
  const entries: CorpusEntry[] = [];
  for (const permissionMode of PERMISSION_MODES) {
    for (const resumeId of [undefined, SESSION_PLACEHOLDER]) {
      for (const promptOnStdin of [false, true]) {
        for (const prompt of [...prompts].sort()) {
          const argv = BUILDERS[cli]({
            prompt,
            model: SPEC_MODELS[cli],
            cwd: CWD_PLACEHOLDER,
            permissionMode,
            resumeId,
            sessionId: resumeId ?? NEW_SESSION_PLACEHOLDER,
            workFile: WORK_FILE_PLACEHOLDER,
            promptOnStdin,
          });
          const shape = shapeOf(argv, prompt);
          if (seen.has(shape)) continue;
          seen.add(shape);
          entries.push({
            argv,
            ...(promptOnStdin ? { stdin: prompt } : {}),
            why: `translator: permission mode ${permissionMode}${resumeId ? ', resume' : ''}${promptOnStdin ? ', prompt on stdin' : ''}`,
          });
        }
      }
    }
  }
  return [...entries, ...KNOWN_BAD[cli]];
}

export const CORPUS_FILE = path.join('harness', 'official-cli', 'pinned', 'argv-corpus.json');
