// Which session a stream's results belong to (docs/protocol.md#r2-turns-sessions-and-processes,
// docs/protocol.md#r21-compaction). A result carries the id of its process's init, or, under the spec profile,
// the new id the shim announced before it with `system` `session_id` (a compaction may change the id, and the
// next `--resume` follows the announcement). The app reads a session id from `init` only, so under yume-app an
// announced id that differs from init's is never resumed: a MUST of its own.
import type { CanonicalEvent, ResultEvent } from '../../protocol/canonical.js';
import type { CheckContext } from './context.js';

export class SessionIdChecks {
  private initId: string | undefined;
  private initLine = 0;
  /** The latest id announced with `system` `session_id`, and its line. */
  private announced: { id: string; line: number } | undefined;

  constructor(private readonly ctx: CheckContext) {}

  /** The process's (first) init. */
  onInit(event: Extract<CanonicalEvent, { kind: 'init' }>): void {
    this.initId = event.sessionId;
    this.initLine = event.line;
  }

  onAnnouncement(event: Extract<CanonicalEvent, { kind: 'system' }>): void {
    const id = event.sessionId;
    if (id === undefined || id === '') return;
    this.announced = { id, line: event.line };
    if (this.initId !== undefined && id !== this.initId) {
      this.ctx.report(
        'app.session-id-from-init',
        event.line,
        `announces session ${JSON.stringify(id)}, but the app reads the session id from init only (${JSON.stringify(this.initId)}, line ${this.initLine}): it resumes the old id`,
      );
    }
  }

  onResult(event: ResultEvent): void {
    if (this.initId === undefined || event.sessionId === undefined) return;
    // Under yume-app an announcement changes nothing: the app keeps init's id.
    const announced = this.ctx.profile === 'yume-app' ? undefined : this.announced;
    const expected = announced?.id ?? this.initId;
    if (event.sessionId === expected) return;
    const source = announced
      ? `the id announced at line ${announced.line}`
      : `the init's ${JSON.stringify(this.initId)} (line ${this.initLine})`;
    this.ctx.report(
      'turn.result-session-id',
      event.line,
      `result.session_id ${JSON.stringify(event.sessionId)} differs from ${announced ? `${JSON.stringify(expected)}, ${source}` : source}`,
    );
  }
}
