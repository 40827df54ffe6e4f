// --provider gemini-cli: runs `gemini --output-format=stream-json --prompt=<text>` and translates its
// events (init, message deltas, tool_use/tool_result, result with stats). The prompt is given as
// `--prompt=<text>` because yargs does not take an option value that starts with '-' from the next
// argument. gemini's tools are mapped to the app's names and fields (read_file → Read {file_path}, ...).
import type { TurnSink } from '../provider.js';
import type { ArgsInput, CliDefinition, CliTranslator } from './cli-provider.js';
import { allowsChanges, asNumber, asString, defined, errorFromStatus, isObject, statusInMessage } from './errors.js';

export const GEMINI_CLI_TOOLS = [
  'Read',
  'Write',
  'Edit',
  'Bash',
  'LS',
  'Glob',
  'Grep',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
];

/** gemini tool name and parameters → the app's tool name and input (D1). */
export function geminiToApp(
  name: string,
  parameters: Record<string, unknown>,
): { name: string; input: Record<string, unknown> } {
  const p = parameters;
  switch (name) {
    case 'read_file': {
      const start = asNumber(p.start_line) ?? asNumber(p.offset);
      const end = asNumber(p.end_line);
      const limit = asNumber(p.limit) ?? (start !== undefined && end !== undefined ? end - start + 1 : undefined);
      return {
        name: 'Read',
        input: defined({ file_path: p.file_path ?? p.absolute_path ?? p.path, offset: start, limit }),
      };
    }
    case 'write_file':
      return { name: 'Write', input: defined({ file_path: p.file_path ?? p.path, content: p.content }) };
    case 'replace':
    case 'edit':
      return {
        name: 'Edit',
        input: defined({
          file_path: p.file_path ?? p.path,
          old_string: p.old_string,
          new_string: p.new_string,
          replace_all: p.allow_multiple === true || (asNumber(p.expected_replacements) ?? 1) > 1 ? true : undefined,
        }),
      };
    case 'run_shell_command': {
      const command = asString(p.command) ?? '';
      const directory = asString(p.dir_path) ?? asString(p.directory);
      return {
        name: 'Bash',
        input: defined({
          command: directory ? `cd ${JSON.stringify(directory)} && ${command}` : command,
          description: p.description,
        }),
      };
    }
    case 'list_directory':
      return { name: 'LS', input: defined({ path: p.dir_path ?? p.path ?? '.' }) };
    case 'glob':
      return { name: 'Glob', input: defined({ pattern: p.pattern, path: p.dir_path ?? p.path }) };
    case 'grep_search':
    case 'search_file_content':
      return {
        name: 'Grep',
        input: defined({ pattern: p.pattern, path: p.dir_path ?? p.path, glob: p.include_pattern ?? p.include }),
      };
    case 'web_fetch':
      return {
        name: 'WebFetch',
        input: defined({ url: /https?:\/\/\S+/.exec(asString(p.prompt) ?? '')?.[0], prompt: p.prompt }),
      };
    case 'google_web_search':
      return { name: 'WebSearch', input: defined({ query: p.query }) };
    case 'write_todos':
      return { name: 'TodoWrite', input: defined({ todos: p.todos }) };
    default:
      return { name, input: parameters };
  }
}

export function geminiArgs(input: ArgsInput): string[] {
  const args = [
    '--output-format=stream-json',
    `--model=${input.model}`,
    `--approval-mode=${allowsChanges(input.permissionMode) ? 'yolo' : 'default'}`,
  ];
  if (input.resumeId) args.push(`--resume=${input.resumeId}`);
  // `--prompt=<text>`: the value is taken whole, even when it starts with '-'.
  if (!input.promptOnStdin) args.push(`--prompt=${input.prompt}`);
  return args;
}

class GeminiTranslator implements CliTranslator {
  cliSessionId: string | undefined;
  ending: CliTranslator['ending'];
  private readonly printedIds = new Map<string, string>();
  private finalText = '';

  constructor(
    private readonly sink: TurnSink,
    private readonly log: (message: string) => void,
  ) {}

  onEvent(event: Record<string, unknown>): void {
    switch (event.type) {
      case 'init':
        this.cliSessionId = asString(event.session_id) ?? this.cliSessionId;
        break;
      case 'message':
        if (event.role === 'assistant' && typeof event.content === 'string') {
          this.sink.text(event.content);
          this.finalText += event.content;
        }
        break;
      case 'tool_use': {
        const cliId = asString(event.tool_id) ?? `call_${this.printedIds.size + 1}`;
        const mapped = geminiToApp(
          asString(event.tool_name) ?? 'unknown',
          isObject(event.parameters) ? event.parameters : {},
        );
        // gemini's ids are its own; the prefix keeps them apart from other providers' ids in the session.
        this.printedIds.set(
          cliId,
          this.sink.toolUse({ id: `gemini_${cliId}`, name: mapped.name, input: mapped.input }),
        );
        this.finalText = '';
        break;
      }
      case 'tool_result': {
        const printed = this.printedIds.get(asString(event.tool_id) ?? '');
        if (!printed) {
          this.log(`gemini-cli: tool_result for unknown tool_id ${String(event.tool_id)} ignored`);
          break;
        }
        const isError = event.status === 'error';
        const error = isObject(event.error) ? asString(event.error.message) : undefined;
        const output = asString(event.output);
        // gemini prints no content for some tools (read_file's output is empty): say so rather than nothing.
        const content =
          (isError ? (error ?? output) : output) ||
          `(gemini reported ${isError ? 'an error' : 'success'} without output)`;
        this.sink.toolResult({ toolUseId: printed, content, isError });
        break;
      }
      case 'result':
        this.onResult(event);
        break;
      case 'error':
        if (event.severity === 'error')
          this.ending = {
            ok: false,
            error: errorFromStatus(
              statusInMessage(asString(event.message) ?? ''),
              `gemini: ${asString(event.message) ?? 'error'}`,
            ),
          };
        else this.log(`gemini-cli: ${asString(event.message) ?? JSON.stringify(event)}`);
        break;
      default:
        break;
    }
  }

  onStderr(text: string): void {
    // gemini retries 429/5xx itself and says so only on stderr (R5: list the retried failures).
    for (const match of text.matchAll(/Attempt (\d+) failed with status (\d+)\. Retrying/g)) {
      this.sink.retried(`gemini retried after HTTP ${match[2]} (attempt ${match[1]})`);
    }
  }

  private onResult(event: Record<string, unknown>): void {
    const stats = isObject(event.stats) ? event.stats : {};
    const input = asNumber(stats.input_tokens) ?? 0;
    const output = asNumber(stats.output_tokens) ?? 0;
    const cached = asNumber(stats.cached) ?? 0;
    // 0/0 means gemini counted nothing (R4: never report 0/0; the turn estimates instead).
    if (input > 0 || output > 0)
      this.sink.usage({ inputTokens: input, outputTokens: output, ...(cached > 0 ? { cacheReadTokens: cached } : {}) });
    if (event.status === 'success') {
      this.ending = { ok: true, text: this.finalText };
      return;
    }
    const message = (isObject(event.error) ? asString(event.error.message) : undefined) ?? 'gemini reported an error';
    this.ending = {
      ok: false,
      error: errorFromStatus(
        statusInMessage(message) ?? (/try again later|quota/i.test(message) ? 429 : undefined),
        `gemini: ${message}`,
      ),
    };
  }
}

export const GEMINI_CLI: CliDefinition = {
  id: 'gemini-cli',
  binary: 'gemini',
  installHint: 'Install it with `npm install -g @google/gemini-cli` and sign in, or use --provider gemini (REST).',
  tools: GEMINI_CLI_TOOLS,
  buildArgs: geminiArgs,
  createTranslator: (sink, context) => new GeminiTranslator(sink, context.log),
};
