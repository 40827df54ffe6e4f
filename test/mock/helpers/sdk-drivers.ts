// Drives each mocked provider with its official SDK and reduces what the SDK assembled to one neutral shape.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { DUMMY_CREDENTIALS } from '../../../harness/mock/credentials.js';
import type { MockProviderId } from '../../../harness/mock/scenario/scenario-types.js';

export interface Assembled {
  text: string;
  thinking: string;
  toolCalls: { id: string | undefined; name: string; args: unknown; rawArgs?: string }[];
  usage: { input: number; output: number } | undefined;
  stop: string | undefined;
}

export interface DriveOptions {
  baseUrls: { openai: string; anthropic: string; gemini: string };
  tools?: string[];
  maxRetries?: number;
  includeUsage?: boolean;
  model?: string;
}

const parseArgs = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return { invalid: raw };
  }
};

export async function driveWithSdk(provider: MockProviderId, options: DriveOptions): Promise<Assembled> {
  const tools = options.tools ?? ['Read', 'Bash', 'Write', 'Edit'];
  const maxRetries = options.maxRetries ?? 0;
  switch (provider) {
    case 'openai-chat': {
      const client = new OpenAI({
        apiKey: DUMMY_CREDENTIALS.openaiApiKey,
        baseURL: options.baseUrls.openai,
        maxRetries,
      });
      const stream = client.chat.completions.stream({
        model: options.model ?? 'gpt-4.1-mini',
        messages: [{ role: 'user', content: 'go' }],
        tools: tools.map((name) => ({
          type: 'function' as const,
          function: { name, parameters: { type: 'object', properties: {} } },
        })),
        ...(options.includeUsage === false ? {} : { stream_options: { include_usage: true } }),
      });
      const final = await stream.finalChatCompletion();
      const message = final.choices[0]!.message;
      return {
        text: message.content ?? '',
        thinking: '',
        toolCalls: (message.tool_calls ?? []).map((call) => {
          const fn = (call as { function: { name: string; arguments: string } }).function;
          return { id: call.id, name: fn.name, args: parseArgs(fn.arguments), rawArgs: fn.arguments };
        }),
        usage: final.usage ? { input: final.usage.prompt_tokens, output: final.usage.completion_tokens } : undefined,
        stop: final.choices[0]!.finish_reason,
      };
    }
    case 'openai-responses': {
      const client = new OpenAI({
        apiKey: DUMMY_CREDENTIALS.openaiApiKey,
        baseURL: options.baseUrls.openai,
        maxRetries,
      });
      const stream = client.responses.stream({
        model: options.model ?? 'gpt-5.2-codex',
        input: 'go',
        tools: tools.map((name) => ({
          type: 'function' as const,
          name,
          parameters: { type: 'object', properties: {} },
          strict: false,
        })),
      });
      const final = await stream.finalResponse();
      let text = '';
      let thinking = '';
      const toolCalls: Assembled['toolCalls'] = [];
      for (const item of final.output) {
        if (item.type === 'message')
          for (const part of item.content) if (part.type === 'output_text') text += part.text;
        if (item.type === 'reasoning') thinking += item.summary.map((s) => s.text).join('');
        if (item.type === 'function_call')
          toolCalls.push({
            id: item.call_id,
            name: item.name,
            args: parseArgs(item.arguments),
            rawArgs: item.arguments,
          });
      }
      return {
        text,
        thinking,
        toolCalls,
        usage: final.usage ? { input: final.usage.input_tokens, output: final.usage.output_tokens } : undefined,
        stop: final.status,
      };
    }
    case 'gemini': {
      const ai = new GoogleGenAI({
        apiKey: DUMMY_CREDENTIALS.geminiApiKey,
        httpOptions: { baseUrl: options.baseUrls.gemini },
      });
      const stream = await ai.models.generateContentStream({
        model: options.model ?? 'gemini-2.5-flash',
        contents: 'go',
        config: {
          tools: [
            {
              functionDeclarations: tools.map((name) => ({
                name,
                parameters: { type: 'OBJECT' as never, properties: {} },
              })),
            },
          ],
        },
      });
      const result: Assembled = { text: '', thinking: '', toolCalls: [], usage: undefined, stop: undefined };
      for await (const chunk of stream) {
        const candidate = chunk.candidates?.[0];
        for (const part of candidate?.content?.parts ?? []) {
          if (part.thought && part.text) result.thinking += part.text;
          else if (part.text) result.text += part.text;
          if (part.functionCall)
            result.toolCalls.push({
              id: part.functionCall.id,
              name: part.functionCall.name ?? '',
              args: part.functionCall.args,
            });
        }
        if (candidate?.finishReason) result.stop = candidate.finishReason;
        if (chunk.usageMetadata)
          result.usage = {
            input: chunk.usageMetadata.promptTokenCount ?? 0,
            output: chunk.usageMetadata.candidatesTokenCount ?? 0,
          };
      }
      return result;
    }
    case 'anthropic': {
      const client = new Anthropic({
        apiKey: DUMMY_CREDENTIALS.anthropicApiKey,
        baseURL: options.baseUrls.anthropic,
        maxRetries,
      });
      const stream = client.messages.stream({
        model: options.model ?? 'claude-mock-model',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'go' }],
        tools: tools.map((name) => ({ name, input_schema: { type: 'object' as const, properties: {} } })),
      });
      const final = await stream.finalMessage();
      const result: Assembled = {
        text: '',
        thinking: '',
        toolCalls: [],
        usage: { input: final.usage.input_tokens, output: final.usage.output_tokens },
        stop: final.stop_reason ?? undefined,
      };
      for (const block of final.content) {
        if (block.type === 'text') result.text += block.text;
        if (block.type === 'thinking') result.thinking += block.thinking;
        if (block.type === 'tool_use') result.toolCalls.push({ id: block.id, name: block.name, args: block.input });
      }
      return result;
    }
  }
}

/** What an SDK throws, reduced to comparable fields. */
export async function sdkFailure(
  run: () => Promise<unknown>,
): Promise<{ name: string; status?: number; message: string; type?: string; code?: string }> {
  try {
    await run();
  } catch (error) {
    // Not every SDK throws an Error: the openai ResponseStream rejects with the `error` event object itself.
    const e = error as {
      constructor?: { name: string };
      status?: number;
      message?: string;
      code?: string;
      type?: string;
      error?: { type?: string; error?: { type?: string } };
    };
    return {
      name: e.constructor?.name ?? 'Object',
      status: e.status,
      message: String(e.message),
      type: e.error?.error?.type ?? e.error?.type ?? e.type,
      code: e.code,
    };
  }
  throw new Error('the SDK call was expected to fail but succeeded');
}
