// The lines of the fake `copilot -p --output-format json` (copilot 1.0.102 on its anthropic BYOK backend, as the
// captures in test/fixtures/streams/captures/copilot show them): every event stamped `{type, data, ephemeral?, id,
// timestamp, parentId}`, the fixed session events a run starts with, and the words of its errors.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { PINNED } from '../pinned/index.js';

const COPILOT_VERSION = PINNED.copilot.version;
export const COPILOT_DEFAULT_MODEL = 'claude-sonnet-4-5';
/** What copilot's BYOK anthropic calls report about themselves in `model.call_failure`. */
export const ANTHROPIC_CALL = {
  apiEndpoint: '/v1/messages',
  transport: 'http',
  maxPromptTokens: 128_000,
  isByok: true,
  byokKind: 'local_user',
  modelProvider: 'anthropic',
  providerType: 'anthropic',
  isAuto: false,
  reasoningEffort: 'medium',
  interactionType: 'conversation-agent',
  rte: false,
  source: 'top_level',
} as const;

/** Events copilot marks `ephemeral` (not kept in its session log). */
const EPHEMERAL = new Set([
  'session.skills_loaded',
  'session.mcp_servers_loaded',
  'session.tools_updated',
  'session.background_tasks_changed',
  'session.info',
  'model.call_start',
  'model.call_finished',
  'model.call_failure',
  'model.call_final_result',
  'assistant.message_start',
  'assistant.message_delta',
  'assistant.tool_call_delta',
  'assistant.turn_retry',
  'assistant.idle',
  'agent.interrupted',
  'tool.shell_output',
  'tool.execution_partial_result',
]);

/** Prints events in copilot's envelope, each naming the one before it as its parent. */
export class CopilotEventStream {
  private parent = randomUUID();

  constructor(private readonly write: (line: Record<string, unknown>) => void) {}

  emit(type: string, data: Record<string, unknown>): void {
    const id = randomUUID();
    const ephemeral = EPHEMERAL.has(type) ? { ephemeral: true } : {};
    this.write({ type, data, ...ephemeral, id, timestamp: new Date().toISOString(), parentId: this.parent });
    this.parent = id;
  }
}

/** Where the binary keeps its unpacked runtime (the order copilot 1.0.102 reads it in). */
function copilotPackageDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache =
    env.COPILOT_PKG_CACHE_HOME ??
    env.COPILOT_CACHE_HOME ??
    (env.XDG_CACHE_HOME ? path.join(env.XDG_CACHE_HOME, 'copilot') : path.join(os.homedir(), '.cache', 'copilot'));
  return path.join(cache, 'pkg', `${process.platform}-${process.arch}`, COPILOT_VERSION);
}

const SKILLS = [
  {
    name: 'customize-cloud-agent',
    description:
      'Skill for customizing the Copilot cloud agent (formerly known as Copilot coding agent) environment, including copilot-setup-steps.yml configuration, preinstalling tools and dependencies, runners, and settings. Use when the user mentions copilot-setup-steps, copilot setup steps, or wants to configure the cloud agent environment.',
  },
  {
    name: 'github-pr-media',
    description:
      "Upload an image or video to GitHub's user attachments API and embed it in a pull request description or comment. Use when asked to add screenshots, diagrams, recordings, or other media to a PR or GitHub comment.",
  },
];

/** The three session events every run starts with. */
export function emitSessionStart(events: CopilotEventStream, model: string): void {
  emitSkillsLoaded(events);
  events.emit('session.mcp_servers_loaded', { servers: [] });
  events.emit('session.tools_updated', { model });
}

/** The built-in skills copilot loads first in every run (all a `/compact` run prints before its result). */
export function emitSkillsLoaded(events: CopilotEventStream): void {
  const builtin = path.join(copilotPackageDir(), 'builtin');
  events.emit('session.skills_loaded', {
    skills: SKILLS.map(({ name, description }) => ({
      name,
      commandName: name,
      description,
      source: 'builtin',
      userInvocable: false,
      enabled: true,
      path: path.join(builtin, name, 'SKILL.md'),
    })),
  });
}

/** `<current_datetime>` as copilot prefixes the prompt with it. */
export function currentDatetime(): string {
  return new Date().toISOString().replace('Z', '+00:00');
}

export const DENIED_MESSAGE =
  'Permission denied because no interactive user response was available. Retry in an interactive session so the user can approve it, or try an alternative that does not require this permission.';
/** copilot's refusal of `/compact` on a session without conversation (stderr, exit 1). */
export const NOTHING_TO_COMPACT = 'Error executing prompt: Error: Nothing to compact.';
/** What copilot prints, on stdout, when it has neither -p nor a prompt on stdin. */
export const NO_PROMPT =
  'No prompt provided. Run in an interactive terminal or provide a prompt with -p or via standard in.\n';

export const DISPOSAL_MESSAGE =
  'Error executing prompt: Error: Cannot invoke native session after disposal has started';
export const RETRY_INFO = {
  api: 'Request failed due to a transient API error. Retrying...',
  stream: 'Response was interrupted due to a server error. Retrying...',
} as const;

/** What copilot's environment refusals print on stderr (exit 1), or undefined when it can start. */
export function environmentRefusal(env: NodeJS.ProcessEnv, model: string | undefined): string | undefined {
  const byok = (env.COPILOT_PROVIDER_BASE_URL ?? '') !== '';
  if (env.COPILOT_OFFLINE === 'true' && !byok)
    return 'Offline mode requires a local model provider. Set COPILOT_PROVIDER_BASE_URL to configure one.\n';
  if (byok && !model)
    return 'BYOK providers require an explicit model. Run `copilot help providers` for configuration details.\n';
  const token = env.COPILOT_GITHUB_TOKEN ?? env.GH_TOKEN ?? env.GITHUB_TOKEN;
  if (!byok && !token)
    return 'Error: No authentication information found.\n\nCopilot can be authenticated with GitHub using an OAuth Token or a Fine-Grained Personal Access Token.\n';
  return undefined;
}
