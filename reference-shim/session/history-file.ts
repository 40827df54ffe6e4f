// --history-file F (R8): a JSON array of prior messages that seeds the conversation. Accepted entries:
// this shim's own history entries, and chat-style {role, content} messages whose content is a string or a
// list of Claude-style blocks (text, tool_use, tool_result).
import { readFileSync } from 'node:fs';
import { messageOf, YumeError, type YumeErrorOptions } from '../../common/errors.js';
import type { AssistantEntry, HistoryEntry } from './history.js';

export class HistoryFileError extends YumeError {
  override name = 'HistoryFileError';
  constructor(message: string, options?: YumeErrorOptions) {
    super('HISTORY_FILE', message, options);
  }
}

interface Block {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return (content as Block[])
    .filter((block) => block?.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('');
}

export function parseHistory(value: unknown, where: string): HistoryEntry[] {
  if (!Array.isArray(value)) throw new HistoryFileError(`${where}: expected a JSON array of messages`);
  const history: HistoryEntry[] = [];
  value.forEach((item, index) => {
    const at = `${where}: message ${index + 1}`;
    const message = item as {
      role?: unknown;
      content?: unknown;
      toolCalls?: unknown;
      toolCallId?: unknown;
      name?: unknown;
      isError?: unknown;
    };
    if (!message || typeof message !== 'object') throw new HistoryFileError(`${at} is not an object`);
    const role = message.role;
    if (role === 'system') return;
    if (role === 'tool') {
      if (typeof message.toolCallId !== 'string') throw new HistoryFileError(`${at}: a tool message needs toolCallId`);
      history.push({
        role: 'tool',
        toolCallId: message.toolCallId,
        name: typeof message.name === 'string' ? message.name : '',
        content: blockText(message.content),
        ...(message.isError === true ? { isError: true } : {}),
      });
      return;
    }
    if (role === 'assistant' || role === 'model') {
      const entry: AssistantEntry = { role: 'assistant', content: blockText(message.content) };
      if (Array.isArray(message.toolCalls)) entry.toolCalls = message.toolCalls as AssistantEntry['toolCalls'];
      if (Array.isArray(message.content)) {
        const uses = (message.content as Block[]).filter(
          (block) => block?.type === 'tool_use' && typeof block.id === 'string',
        );
        if (uses.length > 0) {
          entry.toolCalls = uses.map((block) => ({
            id: block.id as string,
            name: String(block.name ?? ''),
            input: block.input && typeof block.input === 'object' ? (block.input as Record<string, unknown>) : {},
          }));
        }
      }
      history.push(entry);
      return;
    }
    if (role === 'user') {
      const blocks = Array.isArray(message.content) ? (message.content as Block[]) : [];
      for (const block of blocks.filter((b) => b?.type === 'tool_result' && typeof b.tool_use_id === 'string')) {
        history.push({
          role: 'tool',
          toolCallId: block.tool_use_id as string,
          name: '',
          content: blockText(block.content),
          ...(block.is_error ? { isError: true } : {}),
        });
      }
      const text = blockText(message.content);
      if (text || blocks.length === 0) history.push({ role: 'user', content: text });
      return;
    }
    throw new HistoryFileError(`${at} has role ${JSON.stringify(role)}; expected user, assistant, model or tool`);
  });
  return history;
}

export function readHistoryFile(file: string): HistoryEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new HistoryFileError(
      `--history-file ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? messageOf(error)})`,
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HistoryFileError(`--history-file ${file}: not valid JSON (${messageOf(error)})`, { cause: error });
  }
  return parseHistory(value, `--history-file ${file}`);
}
