// Scenarios only CLI-wrapping shims need (not committed to transcripts/ because they test how the shim
// drives the CLI, not the protocol): a prompt that looks like options, a resumed second turn, a command
// with side effects and no output, an interrupt while a tool runs.
import path from 'node:path';
import { ROOT } from './build-shim.js';
import type { RunnableScenario } from './cli-run.js';

const FIXTURES = path.join(ROOT, 'transcripts', 'plain-text', 'workspace');

export const DASH_PROMPT: RunnableScenario = {
  id: 'cli-dash-prompt',
  workspaceDir: FIXTURES,
  turns: [
    {
      prompt: '-rf --help: explain these flags',
      responses: [{ text: ['They are ', 'flags.'], usage: { input_tokens: 50, output_tokens: 4 } }],
      expect: { isError: false },
    },
  ],
};

export const RESUMED_TOOLS: RunnableScenario = {
  id: 'cli-resume',
  workspaceDir: FIXTURES,
  turns: [
    {
      prompt: 'Read hello.txt.',
      responses: [
        {
          toolCalls: [{ id: 'read-1', name: 'Read', input: { file_path: 'hello.txt' } }],
          usage: { input_tokens: 60, output_tokens: 9 },
        },
        { text: ['Read it.'], usage: { input_tokens: 80, output_tokens: 3 } },
      ],
      expect: { isError: false },
    },
    {
      prompt: 'Read it again.',
      resume: true,
      responses: [
        {
          toolCalls: [{ id: 'read-2', name: 'Read', input: { file_path: 'hello.txt' } }],
          usage: { input_tokens: 90, output_tokens: 9 },
        },
        { text: ['Same content.'], usage: { input_tokens: 110, output_tokens: 3 } },
      ],
      expect: { isError: false },
    },
  ],
};

/** A command that changes the workspace and prints nothing (a CLI-wrapping shim that waits for output re-runs such commands locally). */
export const SILENT_SIDE_EFFECT: RunnableScenario = {
  id: 'cli-silent-side-effect',
  workspaceDir: FIXTURES,
  turns: [
    {
      prompt: 'Note that you ran.',
      responses: [
        {
          toolCalls: [{ id: 'append', name: 'Bash', input: { command: 'echo ran >> runs.log' } }],
          usage: { input_tokens: 70, output_tokens: 12 },
        },
        { text: ['Noted.'], usage: { input_tokens: 90, output_tokens: 2 } },
      ],
      expect: { isError: false },
    },
  ],
};

export const INTERRUPT_DURING_TOOL: RunnableScenario = {
  id: 'cli-interrupt-during-tool',
  workspaceDir: FIXTURES,
  turns: [
    {
      prompt: 'Wait a while.',
      interrupt: 'during-tool',
      responses: [
        {
          text: ['Waiting.'],
          toolCalls: [{ id: 'wait', name: 'Bash', input: { command: 'sleep 30' } }],
          usage: { input_tokens: 70, output_tokens: 12 },
        },
        { text: ['Done waiting.'], usage: { input_tokens: 90, output_tokens: 3 } },
      ],
      expect: { isError: true },
    },
  ],
};
