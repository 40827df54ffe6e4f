// Catalog data for the checks on what a shim sent to the mocked provider (rules `requests.*`).
// The validate/rules engineer aggregates this list into harness/rules/catalog.ts.

export type Severity = 'MUST' | 'SHOULD' | 'INFO';

export interface RequestRule {
  id: string;
  severity: Severity;
  profiles: ('spec' | 'yume-app')[];
  /** Seed section, ruling or decision the rule comes from. */
  source: string;
  title: string;
  fix: string;
}

const BOTH: RequestRule['profiles'] = ['spec', 'yume-app'];

export const REQUEST_RULES: readonly RequestRule[] = [
  {
    id: 'requests.tools-declared',
    severity: 'MUST',
    profiles: BOTH,
    source: 'D1',
    title: "The request declares every tool the scenario calls, under the app's tool names",
    fix: "Declare Read, Write, Edit, Bash, ... with the app's input fields in the provider request's tool list.",
  },
  {
    id: 'requests.tool-result-id',
    severity: 'MUST',
    profiles: BOTH,
    source: 'R3; provider-wire §1.3, §2.3, §3.4, §4.3',
    title: 'Tool results are sent back with the id the provider issued',
    fix: "Echo the provider's id: OpenAI tool_call_id, Responses function_call_output.call_id, Anthropic tool_result.tool_use_id; Gemini functionResponse by name, in call order.",
  },
  {
    id: 'requests.tool-result-content',
    severity: 'MUST',
    profiles: BOTH,
    source: 'R10',
    title: "Tool results carry the tool's real output",
    fix: "Send the tool's actual output (file lines, command output, error text) as the tool result content.",
  },
  {
    id: 'requests.tool-result-error-flag',
    severity: 'SHOULD',
    profiles: BOTH,
    source: 'R3; provider-wire §4.3',
    title: 'A failed tool is reported to Anthropic with is_error: true',
    fix: 'Set is_error: true on the tool_result block of a failing tool call.',
  },
  {
    id: 'requests.thought-signature-echoed',
    severity: 'MUST',
    profiles: BOTH,
    source: 'provider-wire §3.4',
    title: 'Gemini function-call parts are replayed with their thoughtSignature',
    fix: 'Keep the thoughtSignature of each model part and send it back unchanged on that part in the next request.',
  },
  {
    id: 'requests.history-on-resume',
    severity: 'MUST',
    profiles: BOTH,
    source: 'R8',
    title: 'A resumed or persistent turn sends the whole earlier conversation',
    fix: 'Load the session history (prompts, assistant text, tool calls and results) and send it before the new prompt.',
  },
  {
    id: 'requests.retry-after-honoured',
    severity: 'MUST',
    profiles: BOTH,
    source: 'R5',
    title: 'Retries wait at least the retry-after delay',
    fix: 'Read the retry-after (or retry-after-ms) header and wait that long before retrying.',
  },
  {
    id: 'requests.no-retry-after-fatal',
    severity: 'MUST',
    profiles: BOTH,
    source: 'R5',
    title: 'No retry after 400, 401, 403 or 404',
    fix: 'Only retry 408/409/429/5xx; report other HTTP errors at once.',
  },
  {
    id: 'requests.unscripted',
    severity: 'MUST',
    profiles: BOTH,
    source: 'R5; R3',
    title: 'No more provider requests than the conversation needs (bounded retries, no loops)',
    fix: 'Bound retries and stop the agent loop when the model answers without tool calls.',
  },
  {
    id: 'requests.auth',
    severity: 'MUST',
    profiles: BOTH,
    source: 'R7; D2',
    title: 'Requests authenticate the way the provider expects with the credentials from the environment',
    fix: 'OpenAI: Authorization: Bearer $OPENAI_API_KEY; Anthropic: x-api-key + anthropic-version; Gemini: x-goog-api-key (or ?key=, or a gcloud Bearer token).',
  },
  {
    id: 'requests.usage-requested',
    severity: 'SHOULD',
    profiles: BOTH,
    source: 'R4',
    title: 'Chat Completions streams ask for usage',
    fix: "Send stream_options: { include_usage: true } so that the turn's usage is the provider's, not an estimate.",
  },
  {
    id: 'requests.connection-closed-on-interrupt',
    severity: 'MUST',
    profiles: BOTH,
    source: 'R6',
    title: 'An interrupt closes the provider connection',
    fix: 'Abort the HTTP request (AbortController) when the turn is interrupted.',
  },
  {
    id: 'requests.streaming',
    severity: 'SHOULD',
    profiles: BOTH,
    source: 'PROTOCOL_NORMALIZATION §1',
    title: 'The provider is asked for a streamed answer',
    fix: 'Use stream: true (Gemini: :streamGenerateContent?alt=sse) so text reaches the app as it arrives.',
  },
  {
    id: 'requests.endpoint',
    severity: 'SHOULD',
    profiles: BOTH,
    source: 'R7; provider-wire §0',
    title: 'Requests go to the provider endpoints under the given base URL',
    fix: "Append the SDK's path to the base URL: {OPENAI_BASE_URL}/chat/completions or /responses, {ANTHROPIC_BASE_URL}/v1/messages, {base}/v1beta/models/{model}:streamGenerateContent.",
  },
  {
    id: 'requests.body-json',
    severity: 'MUST',
    profiles: BOTH,
    source: 'provider-wire §0',
    title: 'Request bodies are JSON',
    fix: 'Send a JSON body with content-type: application/json.',
  },
];

export function requestRule(id: string): RequestRule {
  const rule = REQUEST_RULES.find((candidate) => candidate.id === id);
  if (!rule) throw new Error(`unknown request rule ${id}`);
  return rule;
}
