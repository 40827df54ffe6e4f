// Tool-use ids unique within a session (R3). Provider ids are printed unchanged while they are unique; a
// repeat (a provider reusing "call_1" in a later turn) gets a suffix, and the provider's id is kept as the
// wire id so the result still reaches it. Providers without ids (Gemini) get `<prefix><n>`, counted on from
// the ids already in the session, so the numbering is deterministic and survives --resume.
import type { HistoryEntry } from '../session/history.js';

export class ToolIdAllocator {
  private readonly used = new Set<string>();

  constructor(history: readonly HistoryEntry[] = []) {
    for (const entry of history) {
      if (entry.role === 'assistant') for (const call of entry.toolCalls ?? []) this.used.add(call.id);
      if (entry.role === 'tool') this.used.add(entry.toolCallId);
    }
  }

  /** Returns the id to print for a call whose provider id is `preferred` (possibly absent). */
  allocate(preferred: string | undefined, prefix: string): string {
    if (preferred && !this.used.has(preferred)) return this.take(preferred);
    const base = preferred ? `${preferred}_` : prefix;
    for (let n = 1; ; n += 1) {
      const candidate = `${base}${n}`;
      if (!this.used.has(candidate)) return this.take(candidate);
    }
  }

  private take(id: string): string {
    this.used.add(id);
    return id;
  }
}
