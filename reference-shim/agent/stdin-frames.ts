// What one stdin line of persistent mode asks for (docs/protocol.md "Stdin frames"): a turn, an interrupt, a
// permission mode, a tool approval, or a complaint about the line (malformed JSON, no or unknown type, a
// frame without what it needs). Blank lines ask for nothing; CRLF and unknown fields are tolerated.

/** What a stdin line asks for. */
export type FrameRequest =
  | { kind: 'none' }
  | { kind: 'complaint'; message: string }
  | { kind: 'turn'; prompt: string }
  | { kind: 'interrupt' }
  | { kind: 'permission-mode'; mode: string }
  | { kind: 'tool-approval'; id: string | undefined; approved: boolean };

type Frame = Record<string, unknown> & { type?: unknown };

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content
      .map((block) =>
        typeof block === 'string'
          ? block
          : (block as { type?: unknown; text?: unknown })?.type === 'text'
            ? (block as { text?: unknown }).text
            : undefined,
      )
      .filter((part): part is string => typeof part === 'string');
    return parts.length > 0 ? parts.join('') : undefined;
  }
  return undefined;
}

/** Reads stdin line `lineNumber` (without its \n; a trailing \r is dropped here). */
export function parseFrameLine(raw: string, lineNumber: number): FrameRequest {
  const line = raw.replace(/\r$/, '').trim();
  if (line === '') return { kind: 'none' };
  let frame: Frame;
  try {
    frame = JSON.parse(line) as Frame;
  } catch (error) {
    return complaint(
      `stdin line ${lineNumber} is not valid JSON (${(error as Error).message}); send one JSON object per line, e.g. {"type":"user","content":"hello"}.`,
    );
  }
  if (!frame || typeof frame !== 'object' || Array.isArray(frame) || typeof frame.type !== 'string')
    return complaint(
      `stdin line ${lineNumber} has no "type"; expected a frame such as {"type":"user","content":"hello"}.`,
    );
  return frameRequest(frame, lineNumber);
}

function frameRequest(frame: Frame, lineNumber: number): FrameRequest {
  switch (frame.type) {
    case 'user': {
      const message = frame.message as { content?: unknown } | undefined;
      const prompt = textOf(frame.content) ?? textOf(message?.content);
      if (prompt === undefined || prompt.trim() === '')
        return complaint(`stdin line ${lineNumber}: a user frame needs text in "content" (or "message.content").`);
      return { kind: 'turn', prompt };
    }
    case 'interrupt':
      return { kind: 'interrupt' };
    case 'set_permission_mode': {
      const mode = frame.mode ?? frame.permissionMode;
      if (typeof mode !== 'string' || mode === '')
        return complaint(
          `stdin line ${lineNumber}: set_permission_mode needs "mode" (default, auto, deny or interactive).`,
        );
      return { kind: 'permission-mode', mode };
    }
    case 'tool_approval': {
      const id =
        typeof frame.id === 'string' ? frame.id : typeof frame.tool_use_id === 'string' ? frame.tool_use_id : undefined;
      const approved = frame.approved === true || frame.decision === 'allow' || frame.behavior === 'allow';
      return { kind: 'tool-approval', id, approved };
    }
    default:
      return complaint(
        `stdin line ${lineNumber}: unknown frame type "${frame.type}"; expected user, interrupt, set_permission_mode or tool_approval.`,
      );
  }
}

function complaint(message: string): FrameRequest {
  return { kind: 'complaint', message };
}
