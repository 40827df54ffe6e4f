// How the captures and a fake's output are compared (test/official-cli/captures.test.ts and
// copilot-facts.test.ts): the events' shapes (keys and types, deltas collapsed), their values once ids, times and
// paths are normalised, and stderr's message lines.
import type { OfficialCliName } from '../../../harness/official-cli/script-types.js';
import { COPILOT_VOLATILE_KEYS, joinDeltas, normaliseCopilotText } from './copilot-capture-values.js';

/** Objects whose keys are data (model names), compared by their values' shape only. */
const DYNAMIC_KEYS = new Set(['models', 'modelUsage', 'model_usage_since_last_result']);
const VOLATILE_KEYS = new Set([
  'timestamp',
  'uuid',
  'session_id',
  'thread_id',
  'duration_ms',
  'duration_api_ms',
  'ttft_ms',
  'ttft_stream_ms',
  'time_to_request_ms',
  'first_content_frame_ms',
  'retry_delay_ms',
  // a compaction's size after it counts the summary message, which names the transcript's path (the machine's)
  'post_tokens',
]);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function shapeOf(value: Json, key?: string): Json {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const shapes = [...new Set(value.map((item) => JSON.stringify(shapeOf(item))))].sort();
    return shapes.map((shape) => JSON.parse(shape) as Json);
  }
  if (typeof value === 'object') {
    if (key && DYNAMIC_KEYS.has(key)) {
      const first = Object.values(value)[0];
      return first === undefined ? {} : { '*': shapeOf(first) };
    }
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((name) => [name, shapeOf(value[name]!, name)]),
    );
  }
  return typeof value;
}

/** Consecutive equal entries collapsed (the number of streamed deltas is the provider's business). */
export function collapse(values: Json[]): string[] {
  return values
    .map((value) => JSON.stringify(value))
    .filter((text, index, all) => index === 0 || all[index - 1] !== text);
}

function normaliseText(text: string, workdir: string): string {
  return (
    normaliseCopilotText(text)
      .split(workdir)
      .join('$WORKDIR')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
      // claude's session transcript (named in a compaction's summary message): its HOME and project folder
      .replace(/\S*\/\.claude\/projects\/[^/\s]+\//g, '$CLAUDE_PROJECTS/')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
      .replace(/\btoolu_\w+/g, 'TOOLU')
      .replace(/\bmsg_\w+/g, 'MSG')
      .replace(/\b(\w+)__\1_\d+_(\d+)\b/g, '$1__$1_T_$2')
  );
}

function normalise(value: Json, workdir: string, volatile: ReadonlySet<string> = VOLATILE_KEYS): Json {
  if (typeof value === 'string') return normaliseText(value, workdir);
  if (Array.isArray(value)) return value.map((item) => normalise(item, workdir, volatile));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !volatile.has(key))
        .map(([key, item]) => [key, normalise(item, workdir, volatile)]),
    );
  }
  return value;
}

/**
 * A message's usage without `service_tier`: claude copies the Messages API's `message_start` usage, and the suite's
 * mock has named its service tier there only since the compaction captures (captures 1 to 6 have none).
 */
function withoutServiceTier(line: Json): Json {
  const record = line as { [key: string]: Json };
  const message = record?.message as { [key: string]: Json } | undefined;
  const usage = message?.usage as { [key: string]: Json } | undefined;
  if (record?.type !== 'assistant' || !usage || typeof usage !== 'object' || !('service_tier' in usage)) return line;
  const { service_tier: _tier, ...rest } = usage;
  return { ...record, message: { ...message, usage: rest } };
}

export function parse(stdout: string): Json[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => withoutServiceTier(JSON.parse(line) as Json));
}

/** The comparable values of a stream: claude's init only by shape, gemini's deltas joined, copilot's as it is read. */
export function values(lines: Json[], workdir: string, ignore: readonly string[], cli?: OfficialCliName): Json[] {
  if (cli === 'copilot') return joinDeltas(lines).map((line) => normalise(line, workdir, COPILOT_VOLATILE_KEYS));
  const out: Json[] = [];
  for (const line of lines) {
    const record = line as { [key: string]: Json };
    if (record.type === 'system' && record.subtype === 'init') continue;
    const normalised = normalise(line, workdir) as { [key: string]: Json };
    for (const key of ignore) delete normalised[key];
    const previous = out.at(-1) as { [key: string]: Json } | undefined;
    if (record.type === 'message' && record.delta === true && previous?.type === 'message' && previous.delta === true) {
      previous.content = `${String(previous.content)}${String(normalised.content)}`;
      continue;
    }
    out.push(normalised);
  }
  return out;
}

/**
 * stderr lines that are messages (not stack frames), normalised. `slowStart` false leaves out gemini's startup
 * profiler notes, which a turn prints when the machine made it slow (one compaction capture's first turn), not
 * because of anything the turn did.
 */
export function noise(stderr: string, slowStart = true): string[] {
  return stderr
    .split('\n')
    .filter((line) => /^[A-Z[]/.test(line) && (slowStart || !line.startsWith('[STARTUP]')))
    .map((line) =>
      line
        .replace(/\/[^\s"')]+/g, '/PATH')
        .replace(/\d+/g, 'N')
        .slice(0, 48),
    );
}
