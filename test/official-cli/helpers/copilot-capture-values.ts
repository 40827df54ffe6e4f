// How the copilot captures and the fake's output are made comparable: copilot prints progress events whose number
// and interleaving vary from run to run (background task notices, a shell command's output as it comes), cuts its
// text and tool arguments into deltas at the provider's chunk boundaries, and stamps every event with ids, times,
// durations and telemetry. Those are left out or joined; everything else is compared as printed.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Line = { [key: string]: Json };

/** Events left out of the comparison: progress notices whose count and order vary between runs. */
const PROGRESS = new Set(['session.background_tasks_changed', 'tool.shell_output', 'tool.execution_partial_result']);
/** Fields whose values vary between runs (ids, times, durations, sizes, telemetry). */
export const COPILOT_VOLATILE_KEYS = new Set([
  'id',
  'parentId',
  'timestamp',
  'sessionId',
  'messageId',
  'interactionId',
  'originatingMessageId',
  'parentAgentTaskId',
  'apiCallId',
  'providerCallId',
  'dispatchDurationMs',
  'durationMs',
  'totalApiDurationMs',
  'sessionDurationMs',
  'elapsedMs',
  'outputTtftMs',
  'requestBodyBytes',
  'requestBodyWireBytes',
  'transformedContent',
  'toolTelemetry',
]);

/** The lines of a copilot stream without its progress events. */
export function withoutProgress(lines: readonly Json[]): Json[] {
  return lines.filter((line) => !PROGRESS.has(String((line as Line).type)));
}

/** Consecutive text deltas of one message, and argument deltas of one call, joined into one event each. */
export function joinDeltas(lines: readonly Json[]): Json[] {
  const out: Json[] = [];
  for (const line of lines) {
    const record = line as Line;
    const data = (record.data ?? {}) as Line;
    const previous = out.at(-1) as Line | undefined;
    const previousData = (previous?.data ?? {}) as Line;
    if (record.type === 'assistant.message_delta' && previous?.type === record.type) {
      previous.data = { ...previousData, deltaContent: `${previousData.deltaContent}${data.deltaContent}` };
      continue;
    }
    if (
      record.type === 'assistant.tool_call_delta' &&
      previous?.type === record.type &&
      previousData.toolCallId === data.toolCallId
    ) {
      previous.data = { ...previousData, inputDelta: `${previousData.inputDelta}${data.inputDelta}` };
      continue;
    }
    out.push(structuredClone(record));
  }
  return out;
}

/** The unpacked runtime's folder (COPILOT_PKG_CACHE_HOME/pkg/<platform>/<version>) as one placeholder. */
export function normaliseCopilotText(text: string): string {
  return text.replace(/\S*\/pkg\/[\w-]+\/\d+\.\d+\.\d+\//g, '$PKG/');
}
