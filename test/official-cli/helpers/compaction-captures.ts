// The compaction captures (test/fixtures/streams/captures/HOW-CAPTURED.md, "Compaction captures") as scenarios for
// the fakes: each CLI turn's prompt, whether it resumed turn 1's session, whether it was interrupted, and the
// responses the capture's mock (and, for gemini's background compression, its proxy) gave it.
import type { OfficialCliName, ScriptResponse, ScriptScenario } from '../../../harness/official-cli/script-types.js';

export const COMPACTION_CAPTURE_IDS: Record<OfficialCliName, readonly string[]> = {
  claude: ['7-compact', '8-overflow', '9-compact-interrupted', '10-compact-empty'],
  gemini: ['7-compress', '7b-compact', '8-overflow'],
  codex: ['7-compact', '8-overflow'],
  copilot: ['7-compact'],
};

const REMEMBER = 'Read hello.txt and remember its first line.';
const ASK = 'What was the first line of hello.txt?';
const ASK_NOTES = 'What does notes.txt say?';
const COMPACT = '/compact task: remember the file | files: hello.txt';
const CLI_COMMAND_ANSWER = ['I cannot run that myself: ', 'it is a command of the CLI.'];

/** Turn 1 of every capture: the `resume` scenario's two answers. */
const READ_AND_NOTE: ScriptResponse[] = [
  {
    text: ['Reading it.'],
    toolCalls: [{ id: 'read', name: 'Read', input: { file_path: 'hello.txt' } }],
    usage: { input_tokens: 125, output_tokens: 18 },
  },
  { text: ['Noted: the first line is a greeting.'], usage: { input_tokens: 180, output_tokens: 9 } },
];
const ANSWER: ScriptResponse = {
  text: ['It was: ', 'Hello from the fixture file.'],
  usage: { input_tokens: 230, output_tokens: 12 },
};

/** 7-compact's summary: no `<summary>` block, so claude asks twice and keeps the first. */
const UNTAGGED_SUMMARY: ScriptResponse = {
  summary: true,
  text: [
    'The user asked to read hello.txt and remember its first line. Its first line is "Hello from the fixture file."',
  ],
  usage: { input_tokens: 240, output_tokens: 31 },
};
/** 7b-compact-tagged's summary, used in 8-overflow: shaped as claude's instruction asks. */
const TAGGED_SUMMARY: ScriptResponse = {
  summary: true,
  text: [
    '<analysis>\nThe user asked me to read hello.txt and remember its first line; I read it.\n</analysis>\n\n',
    '<summary>\n1. Primary Request and Intent: read hello.txt and remember its first line.\n',
    '3. Files and Code Sections: hello.txt, whose first line is "Hello from the fixture file."\n</summary>',
  ],
  usage: { input_tokens: 240, output_tokens: 48 },
};
/** gemini's background compression, answered by the capture's proxy (both of its calls). */
const STATE_SNAPSHOT: ScriptResponse = {
  summary: true,
  text: ['<state_snapshot>\n<overall_goal>Remember the first line of hello.txt.</overall_goal>\n</state_snapshot>'],
  usage: { input_tokens: 240, output_tokens: 40 },
};

/**
 * copilot's 7-compact (its recorder's scenario): its own prompts; the mock answered the one summary request of
 * `/compact` with turn 2's first reply and turn 3 with its second (HOW-CAPTURED.md, "/compact (7-compact)").
 */
const COPILOT_COMPACT: CaptureTurn[] = [
  {
    prompt: 'Read hello.txt and remember its first line.',
    resume: false,
    responses: [
      {
        text: ["I'll read ", 'the file.'],
        toolCalls: [{ id: 'read', name: 'Read', input: { file_path: 'hello.txt' } }],
        usage: { input_tokens: 121, output_tokens: 26 },
      },
      {
        text: ['The first line is: ', 'Hello from the fixture file.'],
        usage: { input_tokens: 180, output_tokens: 12 },
      },
    ],
  },
  {
    prompt: '/compact keep the first line',
    resume: true,
    responses: [
      {
        summary: true,
        text: ['Summary: the user asked to read hello.txt; ', 'its first line is "Hello from the fixture file."'],
        usage: { input_tokens: 300, output_tokens: 20 },
      },
    ],
  },
  {
    prompt: 'What is the first line of hello.txt?',
    resume: true,
    responses: [
      {
        text: ['Second summary: hello.txt starts with ', '"Hello from the fixture file."'],
        usage: { input_tokens: 310, output_tokens: 21 },
      },
    ],
  },
];

export interface CaptureTurn {
  prompt: string;
  resume: boolean;
  /** SIGINT to the CLI's pid once it holds the stalled stream. */
  interrupt?: true;
  responses: ScriptResponse[];
}

function compactionTurns(cli: OfficialCliName, id: string): CaptureTurn[] {
  const first: CaptureTurn = { prompt: REMEMBER, resume: false, responses: READ_AND_NOTE };
  const third: CaptureTurn = { prompt: ASK, resume: true, responses: [ANSWER] };
  const overflow: ScriptResponse =
    cli === 'gemini'
      ? // the capture's mock said what the real Gemini API says, quoting a smaller count than the suite's mock
        {
          fault: {
            kind: 'http',
            status: 400,
            message: 'The input token count (212345) exceeds the maximum number of tokens allowed (1048576).',
          },
        }
      : { fault: { kind: 'context-overflow' } };
  const textAnswer = { text: CLI_COMMAND_ANSWER, usage: { input_tokens: 250, output_tokens: 14 } };
  switch (`${cli} ${id}`) {
    case 'claude 7-compact':
      return [first, { prompt: COMPACT, resume: true, responses: [UNTAGGED_SUMMARY] }, third];
    case 'claude 8-overflow':
      return [
        first,
        {
          prompt: ASK_NOTES,
          resume: true,
          responses: [
            overflow,
            TAGGED_SUMMARY,
            { text: ['notes.txt holds meeting notes.'], usage: { input_tokens: 260, output_tokens: 8 } },
          ],
        },
      ];
    case 'claude 9-compact-interrupted': {
      const stalled: ScriptResponse = { ...TAGGED_SUMMARY, stall: 'after-first-text' };
      return [first, { prompt: COMPACT, resume: true, interrupt: true, responses: [stalled] }, third];
    }
    case 'claude 10-compact-empty':
      return [{ prompt: '/compact', resume: false, responses: [] }];
    case 'gemini 7-compress':
      return [first, { prompt: '/compress', resume: true, responses: [STATE_SNAPSHOT, textAnswer] }, third];
    case 'gemini 7b-compact':
      return [first, { prompt: COMPACT, resume: true, responses: [STATE_SNAPSHOT, textAnswer] }, third];
    case 'codex 7-compact':
      return [first, { prompt: COMPACT, resume: true, responses: [textAnswer] }, third];
    case 'copilot 7-compact':
      return COPILOT_COMPACT;
    case 'gemini 8-overflow':
    case 'codex 8-overflow':
      return [first, { prompt: ASK_NOTES, resume: true, responses: [overflow] }];
    default:
      throw new Error(`no compaction capture ${cli}/${id}`);
  }
}

export function compactionCapture(
  cli: OfficialCliName,
  id: string,
): { turns: CaptureTurn[]; scenario: ScriptScenario } {
  const turns = compactionTurns(cli, id);
  const scenario: ScriptScenario = {
    id,
    turns: turns.map((turn) => ({ prompt: turn.prompt, resume: turn.resume, responses: turn.responses })),
  };
  return { turns, scenario };
}
