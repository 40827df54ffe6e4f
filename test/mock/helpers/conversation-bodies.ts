// Hand-built request bodies in each provider's format, as a correct shim would send them (and broken variants).
import { DUMMY_CREDENTIALS } from '../../../harness/mock/credentials.js';
import type { MockProviderId } from '../../../harness/mock/scenario/scenario-types.js';

export interface SentCall {
  id?: string;
  name: string;
  input: Record<string, unknown>;
  thoughtSignature?: string;
}
export interface SentResult {
  id?: string;
  name: string;
  content: string;
  isError?: boolean;
}
export interface Exchange {
  assistantText?: string;
  calls: SentCall[];
  results: SentResult[];
}
export interface Conversation {
  /** Earlier turns and the current one: prompt, then the exchanges of that turn, then the final answer (if any). */
  turns: { prompt: string; exchanges: Exchange[]; answer?: string }[];
  tools: string[];
  includeUsage?: boolean;
}

export function conversationBody(provider: MockProviderId, conversation: Conversation): unknown {
  const { tools } = conversation;
  switch (provider) {
    case 'openai-chat': {
      const messages: unknown[] = [];
      for (const turn of conversation.turns) {
        messages.push({ role: 'user', content: turn.prompt });
        for (const exchange of turn.exchanges) {
          messages.push({
            role: 'assistant',
            content: exchange.assistantText ?? null,
            tool_calls: exchange.calls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.input) },
            })),
          });
          for (const result of exchange.results)
            messages.push({ role: 'tool', tool_call_id: result.id, content: result.content });
        }
        if (turn.answer) messages.push({ role: 'assistant', content: turn.answer });
      }
      return {
        model: 'gpt-4.1-mini',
        stream: true,
        messages,
        ...(conversation.includeUsage === false ? {} : { stream_options: { include_usage: true } }),
        tools: tools.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } })),
      };
    }
    case 'openai-responses': {
      const input: unknown[] = [];
      for (const turn of conversation.turns) {
        input.push({ role: 'user', content: [{ type: 'input_text', text: turn.prompt }] });
        for (const exchange of turn.exchanges) {
          if (exchange.assistantText)
            input.push({
              type: 'message',
              role: 'assistant',
              content: [{ type: 'output_text', text: exchange.assistantText }],
            });
          for (const call of exchange.calls)
            input.push({
              type: 'function_call',
              call_id: call.id,
              name: call.name,
              arguments: JSON.stringify(call.input),
            });
          for (const result of exchange.results)
            input.push({ type: 'function_call_output', call_id: result.id, output: result.content });
        }
        if (turn.answer)
          input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: turn.answer }] });
      }
      return {
        model: 'gpt-5.2-codex',
        stream: true,
        input,
        tools: tools.map((name) => ({ type: 'function', name, parameters: { type: 'object' } })),
      };
    }
    case 'gemini': {
      const contents: unknown[] = [];
      for (const turn of conversation.turns) {
        contents.push({ role: 'user', parts: [{ text: turn.prompt }] });
        for (const exchange of turn.exchanges) {
          contents.push({
            role: 'model',
            parts: [
              ...(exchange.assistantText ? [{ text: exchange.assistantText }] : []),
              ...exchange.calls.map((call) => ({
                functionCall: { name: call.name, args: call.input },
                ...(call.thoughtSignature ? { thoughtSignature: call.thoughtSignature } : {}),
              })),
            ],
          });
          contents.push({
            role: 'user',
            parts: exchange.results.map((result) => ({
              functionResponse: {
                name: result.name,
                response: result.isError ? { error: result.content } : { output: result.content },
              },
            })),
          });
        }
        if (turn.answer) contents.push({ role: 'model', parts: [{ text: turn.answer }] });
      }
      return { contents, tools: [{ functionDeclarations: tools.map((name) => ({ name })) }] };
    }
    case 'anthropic': {
      const messages: unknown[] = [];
      for (const turn of conversation.turns) {
        messages.push({ role: 'user', content: turn.prompt });
        for (const exchange of turn.exchanges) {
          messages.push({
            role: 'assistant',
            content: [
              ...(exchange.assistantText ? [{ type: 'text', text: exchange.assistantText }] : []),
              ...exchange.calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
            ],
          });
          messages.push({
            role: 'user',
            content: exchange.results.map((result) => ({
              type: 'tool_result',
              tool_use_id: result.id,
              content: result.content,
              ...(result.isError !== undefined ? { is_error: result.isError } : {}),
            })),
          });
        }
        if (turn.answer) messages.push({ role: 'assistant', content: [{ type: 'text', text: turn.answer }] });
      }
      return {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        stream: true,
        messages,
        tools: tools.map((name) => ({ name, input_schema: { type: 'object' } })),
      };
    }
  }
}

/** POSTs a body to the mock the way the provider's SDK would (path, auth headers). Reads the whole answer. */
export async function send(
  provider: MockProviderId,
  url: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const json = { 'content-type': 'application/json' };
  const target: Record<MockProviderId, [string, Record<string, string>]> = {
    'openai-chat': [
      `${url}/v1/chat/completions`,
      { ...json, authorization: `Bearer ${DUMMY_CREDENTIALS.openaiApiKey}` },
    ],
    'openai-responses': [`${url}/v1/responses`, { ...json, authorization: `Bearer ${DUMMY_CREDENTIALS.openaiApiKey}` }],
    gemini: [
      `${url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
      { ...json, 'x-goog-api-key': DUMMY_CREDENTIALS.geminiApiKey },
    ],
    anthropic: [
      `${url}/v1/messages`,
      { ...json, 'x-api-key': DUMMY_CREDENTIALS.anthropicApiKey, 'anthropic-version': '2023-06-01' },
    ],
  };
  const [address, headers] = target[provider];
  const response = await fetch(address, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}
