// How the runner starts a shim (R7): the `spec` invocation, the `yume-app` invocation (exactly what the app
// passes) or a user template file (schemas/invocation.schema.json).

import invocationSchema from '../../../schemas/invocation.schema.json' with { type: 'json' };
import { type NotVerified, runNotVerified } from '../../rules/not-verified.js';
import { ConfigFileError, loadJsonConfig } from './config-file.js';
import { type ProviderEntry, type ProviderId, providerEntry } from './providers.js';

export type ArgvTemplate = (string | { when: TemplateCondition; args: string[] })[];
export type TemplateCondition = 'prompt' | 'resumeId' | 'historyFile' | 'sessionId' | 'permissionMode';

export interface InvocationTemplate {
  description?: string;
  providers: Partial<Record<ProviderId, { provider: string; model: string }>>;
  spawnPerTurn: ArgvTemplate;
  persistent?: ArgvTemplate;
  promptOnStdin?: boolean;
  env?: Record<string, string>;
}

export type Invocation =
  | { kind: 'spec' }
  | { kind: 'yume-app' }
  | { kind: 'template'; file: string; template: InvocationTemplate };

/** Name of an invocation for reports: spec, yume-app, or the template file's name. */
export function invocationName(invocation: Invocation): string {
  return invocation.kind === 'template' ? invocation.file : invocation.kind;
}

export interface InvocationValues {
  providerId: ProviderId;
  cwd: string;
  sessionId: string;
  /** Spawn-per-turn prompt (absent in persistent mode). */
  prompt?: string;
  resumeId?: string;
  historyFile?: string;
  apiBase: string;
  /** The scenario's permission mode; undefined = default. */
  permissionMode?: string;
  protocolVersion: string;
  persistent: boolean;
}

export type BuiltInvocation =
  | { args: string[]; env: Record<string, string>; stdinPrompt?: string }
  | { notVerified: NotVerified };

/** Loads and validates a template file; throws ConfigFileError with file, line and fix. */
export function loadInvocationTemplate(file: string): Invocation {
  const template = loadJsonConfig<InvocationTemplate>(
    file,
    invocationSchema,
    '--invocation',
    'schemas/invocation.schema.json',
  );
  const known = new Set([
    'provider',
    'model',
    'cwd',
    'sessionId',
    'prompt',
    'resumeId',
    'historyFile',
    'apiBase',
    'permissionMode',
    'protocolVersion',
  ]);
  const strings = [
    ...flatten(template.spawnPerTurn),
    ...flatten(template.persistent ?? []),
    ...Object.values(template.env ?? {}),
  ];
  for (const text of strings) {
    for (const name of placeholders(text)) {
      if (!known.has(name)) {
        throw new ConfigFileError(
          `--invocation ${file}: unknown placeholder {${name}} in ${JSON.stringify(text)} — fix: use one of ${[...known].map((k) => `{${k}}`).join(' ')}`,
        );
      }
    }
  }
  return { kind: 'template', file, template };
}

/** Resolves `--invocation spec|yume-app|FILE`. */
export function resolveInvocation(value: string | undefined): Invocation {
  if (value === undefined || value === 'spec') return { kind: 'spec' };
  if (value === 'yume-app') return { kind: 'yume-app' };
  return loadInvocationTemplate(value);
}

function flatten(argv: ArgvTemplate): string[] {
  return argv.flatMap((item) => (typeof item === 'string' ? [item] : item.args));
}

/** Placeholder names in a template string ({{ and }} are literal braces). */
function placeholders(text: string): string[] {
  return [...text.replace(/\{\{|\}\}/g, '').matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1]!);
}

function fill(text: string, values: Record<string, string | undefined>): string {
  return text.replace(/\{\{|\}\}|\{([A-Za-z]+)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    return values[name!] ?? '';
  });
}

function expand(argv: ArgvTemplate, values: Record<string, string | undefined>): string[] {
  return argv.flatMap((item) => {
    if (typeof item === 'string') return [fill(item, values)];
    return values[item.when] === undefined ? [] : item.args.map((arg) => fill(arg, values));
  });
}

/** The invocation of a process the runner can start: its argv, extra environment and a prompt for stdin. */
export type ReadyInvocation = Exclude<BuiltInvocation, { notVerified: NotVerified }>;

/**
 * The argv (and extra environment) of one process of a run, or why this invocation cannot verify it (what the
 * invocation cannot express counts as a missing capability).
 */
export function buildInvocation(invocation: Invocation, values: InvocationValues): BuiltInvocation {
  const entry = providerEntry(values.providerId);
  if (!entry) return { notVerified: runNotVerified('harness', `unknown provider id ${values.providerId}`) };
  if (invocation.kind === 'spec') return specInvocation(entry, values);
  if (invocation.kind === 'yume-app') return yumeAppInvocation(entry, values);
  return templateInvocation(invocation, entry, values);
}

/** The spec's own invocation: every value as a flag (docs/protocol.md). */
function specInvocation(entry: ProviderEntry, values: InvocationValues): BuiltInvocation {
  const args = [
    'start',
    '--provider',
    entry.spec.provider,
    '--model',
    entry.spec.model,
    '--cwd',
    values.cwd,
    '--session-id',
    values.sessionId,
  ];
  if (values.resumeId !== undefined) args.push('--resume', values.resumeId);
  if (values.historyFile !== undefined) args.push('--history-file', values.historyFile);
  if (values.persistent) args.push('--input-format', 'stream-json');
  else args.push('--prompt', values.prompt ?? '');
  args.push(
    '--output-format',
    'stream-json',
    '--api-base',
    values.apiBase,
    '--permission-mode',
    values.permissionMode ?? 'default',
    '--protocol-version',
    values.protocolVersion,
  );
  return { args, env: {} };
}

/** Exactly what the app passes (R7); what it cannot pass is a missing capability. */
function yumeAppInvocation(entry: ProviderEntry, values: InvocationValues): BuiltInvocation {
  const mode = values.permissionMode ?? 'default';
  if (!entry.yumeApp)
    return {
      notVerified: runNotVerified('capability', `the app has no provider for ${entry.id} (— in R7's yume-app column)`),
    };
  if (values.persistent)
    return {
      notVerified: runNotVerified(
        'capability',
        "the app never writes to a shim's stdin, so persistent mode has no yume-app invocation",
      ),
    };
  if (mode !== 'default')
    return {
      notVerified: runNotVerified(
        'capability',
        `the app passes no --permission-mode, so permission mode ${mode} cannot be requested`,
      ),
    };
  // The exact order the app's spawner uses (R7).
  const args = ['--provider', entry.yumeApp.provider, '--model', entry.yumeApp.model, '--cwd', values.cwd];
  if (values.resumeId !== undefined) args.push('--resume', values.resumeId);
  if (values.historyFile !== undefined) args.push('--history-file', values.historyFile);
  if (values.prompt !== undefined && values.prompt.trim() !== '') args.push('--prompt', values.prompt);
  args.push('--output-format', 'stream-json', '--verbose');
  return { args, env: {} };
}

/** Whether a template's argv can pass the permission mode (a placeholder, or a `when` on it). */
function passesPermissionMode(argv: ArgvTemplate): boolean {
  return (
    flatten(argv).some((text) => placeholders(text).includes('permissionMode')) ||
    argv.some((item) => typeof item !== 'string' && item.when === 'permissionMode')
  );
}

/** A user template filled with the values; what it lacks (a provider, persistent arguments, the mode) is a capability. */
function templateInvocation(
  invocation: Extract<Invocation, { kind: 'template' }>,
  entry: ProviderEntry,
  values: InvocationValues,
): BuiltInvocation {
  const { template, file } = invocation;
  const mode = values.permissionMode ?? 'default';
  const providerValues = template.providers[entry.id];
  if (!providerValues)
    return { notVerified: runNotVerified('capability', `${file} lists no values for provider ${entry.id}`) };
  const argv = values.persistent ? template.persistent : template.spawnPerTurn;
  if (!argv)
    return {
      notVerified: runNotVerified(
        'capability',
        `${file} has no "persistent" arguments, so persistent mode is not verified`,
      ),
    };
  if (mode !== 'default' && !passesPermissionMode(argv))
    return {
      notVerified: runNotVerified(
        'capability',
        `${file} passes no {permissionMode}, so permission mode ${mode} cannot be requested`,
      ),
    };
  const onStdin = !values.persistent && template.promptOnStdin === true;
  const filled: Record<string, string | undefined> = {
    provider: providerValues.provider,
    model: providerValues.model,
    cwd: values.cwd,
    sessionId: values.sessionId,
    prompt: values.persistent || onStdin ? undefined : values.prompt,
    resumeId: values.resumeId,
    historyFile: values.historyFile,
    apiBase: values.apiBase,
    permissionMode: values.permissionMode,
    protocolVersion: values.protocolVersion,
  };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(template.env ?? {})) env[name] = fill(value, filled);
  return { args: expand(argv, filled), env, ...(onStdin ? { stdinPrompt: values.prompt ?? '' } : {}) };
}
