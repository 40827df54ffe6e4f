// turn.*, tool.*, usage.*, error.*, interrupt.* (R2-R6) and the sequence-level app hazards, judged over
// canonical events so both dialects get the same checks. One pass, constant work per event.
import type { CanonicalEvent, ResultEvent } from '../../protocol/canonical.js';
import { CompactionChecks, type CompactTurn } from './compaction.js';
import { brief, type CheckContext, isObject } from './context.js';
import { SessionIdChecks } from './session-id.js';
import { checkToolInput } from './tool-input.js';

export type SequenceMode = 'spawn-per-turn' | 'persistent';

interface PendingTool {
  line: number;
  name: string;
  invalidArguments: boolean;
}

interface TurnState {
  /** Events of this turn so far, message_stop not counted. */
  events: number;
  /** Events of this turn other than init and message_stop. */
  content: number;
  firstLine: number;
  pending: Map<string, PendingTool>;
  answered: Set<string>;
  errorLine: number | undefined;
  interruptLine: number | undefined;
  usageSeen: boolean;
  /** Line of the turn's first flat usage line, and whether a nested one (the form the app counts) came. */
  flatUsageLine: number | undefined;
  nestedUsageSeen: boolean;
  textWhilePendingReported: boolean;
  afterInterruptReported: boolean;
}

function newTurn(): TurnState {
  return {
    events: 0,
    content: 0,
    firstLine: 0,
    pending: new Map(),
    answered: new Set(),
    errorLine: undefined,
    interruptLine: undefined,
    usageSeen: false,
    flatUsageLine: undefined,
    nestedUsageSeen: false,
    textWhilePendingReported: false,
    afterInterruptReported: false,
  };
}

export class SequenceChecks {
  private firstEventSeen = false;
  private initCount = 0;
  private initTools: Set<string> | undefined;
  private readonly toolIds = new Map<string, number>();
  private turn = newTurn();
  private results = 0;
  private previousKind: CanonicalEvent['kind'] | undefined;
  private previousLine = 0;
  private messageStopsAfterResult = 0;
  private nothingAfterResultReported = false;
  private readonly sessionIds: SessionIdChecks;
  private readonly compaction: CompactionChecks;

  /** `compactTurns`: which of the stream's turns ask for a compaction, by prompt (docs/protocol.md#r21-compaction). */
  constructor(
    private readonly ctx: CheckContext,
    private readonly mode: SequenceMode | undefined,
    compactTurns?: readonly CompactTurn[],
  ) {
    this.sessionIds = new SessionIdChecks(ctx);
    this.compaction = new CompactionChecks(ctx, compactTurns);
  }

  /** `flat` says whether the event came from a flat-dialect line (R3: one call at a time is MUST there). */
  onEvent(event: CanonicalEvent, flat: boolean): void {
    // `system` `status` lines (claude's "compacting") may come before init (docs/protocol.md#r21-compaction).
    const status = event.kind === 'system' && event.subtype === 'status';
    if (!this.firstEventSeen && !status) this.onFirstEvent(event);
    // Persistent mode answers a malformed or unknown stdin frame with an `error` line between turns; that line
    // belongs to no turn, so it neither starts one nor makes the next turn an error turn.
    if (this.mode === 'persistent' && event.kind === 'error' && this.turn.content === 0) return;
    this.countInTurn(event);
    this.checkAfterInterrupt(event);
    this.compaction.onEvent(event);
    this.dispatch(event, flat);
    this.previousKind = event.kind;
    this.previousLine = event.line;
  }

  private onFirstEvent(event: CanonicalEvent): void {
    this.firstEventSeen = true;
    const argumentError = event.kind === 'system' && event.subtype === 'error';
    if (event.kind !== 'init' && !argumentError) {
      this.ctx.report('turn.init-first', event.line, `first message is ${describeEvent(event)}, not system init`);
    }
  }

  /** The event counted in its turn; in spawn-per-turn mode nothing may start a second turn. */
  private countInTurn(event: CanonicalEvent): void {
    const turn = this.turn;
    if (event.kind !== 'init' && event.kind !== 'message_stop') turn.content += 1;
    if (event.kind === 'message_stop') return;
    if (this.results > 0 && turn.events === 0 && this.mode === 'spawn-per-turn' && !this.nothingAfterResultReported) {
      this.nothingAfterResultReported = true;
      this.ctx.report(
        'turn.nothing-after-result',
        event.line,
        `${describeEvent(event)} follows the turn's result (spawn-per-turn: one turn per process)`,
      );
    }
    if (turn.events === 0) turn.firstLine = event.line;
    turn.events += 1;
  }

  /** After an interrupt only the error result may follow: no more text, thinking or tool calls. */
  private checkAfterInterrupt(event: CanonicalEvent): void {
    const turn = this.turn;
    if (turn.interruptLine === undefined || turn.afterInterruptReported) return;
    if (event.kind !== 'text' && event.kind !== 'tool_use' && event.kind !== 'thinking') return;
    turn.afterInterruptReported = true;
    this.ctx.report(
      'interrupt.error-result',
      event.line,
      `${describeEvent(event)} after the interrupt at line ${turn.interruptLine}; only the error result may follow`,
    );
  }

  private dispatch(event: CanonicalEvent, flat: boolean): void {
    const turn = this.turn;
    switch (event.kind) {
      case 'init':
        this.onInit(event);
        break;
      case 'system':
        if (event.subtype === 'error') turn.errorLine ??= event.line;
        if (event.subtype === 'session_id') this.sessionIds.onAnnouncement(event);
        break;
      case 'error':
        turn.errorLine ??= event.line;
        break;
      case 'text':
        this.onText(event.line);
        break;
      case 'tool_use':
        this.onToolUse(event, flat);
        break;
      case 'tool_result':
        this.onToolResult(event);
        break;
      case 'usage':
        turn.usageSeen = true;
        if (event.nested) turn.nestedUsageSeen = true;
        else turn.flatUsageLine ??= event.line;
        break;
      case 'interrupt':
        turn.interruptLine ??= event.line;
        break;
      case 'result':
        this.onResult(event);
        break;
      case 'message_stop':
        this.onMessageStop(event.line);
        break;
      default:
        break;
    }
  }

  private onInit(event: Extract<CanonicalEvent, { kind: 'init' }>): void {
    this.initCount += 1;
    if (this.initCount > 1) {
      const message = 'second system init (the first was earlier); init comes once per process';
      this.ctx.report('turn.init-once', event.line, message);
      return;
    }
    if (event.tools) this.initTools = new Set(event.tools);
    this.sessionIds.onInit(event);
  }

  private onText(line: number): void {
    const turn = this.turn;
    if (turn.pending.size === 0 || turn.textWhilePendingReported) return;
    turn.textWhilePendingReported = true;
    const [id, call] = turn.pending.entries().next().value as [string, PendingTool];
    this.ctx.report(
      'tool.no-text-before-result',
      line,
      `assistant text while tool_use ${JSON.stringify(id)} (line ${call.line}) has no tool_result yet`,
    );
  }

  private onMessageStop(line: number): void {
    if (this.previousKind !== 'result') {
      this.ctx.report(
        'turn.message-stop-after-result',
        line,
        this.results === 0 || this.previousKind !== 'message_stop'
          ? `message_stop is not directly after a result (previous: ${this.previousKind ?? 'nothing'}, line ${this.previousLine || '-'})`
          : 'second message_stop for the same turn',
      );
    }
    this.messageStopsAfterResult += 1;
  }

  private onToolUse(event: Extract<CanonicalEvent, { kind: 'tool_use' }>, flat: boolean): void {
    const ctx = this.ctx;
    const turn = this.turn;
    const { id, name, input, line } = event;
    const invalidArguments = isObject(input) && Object.hasOwn(input, '_invalid_arguments');
    if (id !== '') {
      const earlier = this.toolIds.get(id);
      if (earlier !== undefined)
        ctx.report('tool.unique-id', line, `tool_use id ${JSON.stringify(id)} was already used at line ${earlier}`);
      else this.toolIds.set(id, line);
    }
    if (this.initTools && name !== '' && !this.initTools.has(name)) {
      ctx.report('tool.listed-in-init', line, `tool "${name}" is used but not listed in system init's tools`);
    }
    if (!isObject(input)) {
      ctx.report('tool.input-object', line, `tool_use.input is ${brief(input)}, not an object`);
    } else if (!invalidArguments) {
      checkToolInput(this.ctx, name, input, line);
    }
    if (turn.pending.size > 0) {
      const [pendingId, call] = turn.pending.entries().next().value as [string, PendingTool];
      const what = `tool_use ${JSON.stringify(id)} while ${JSON.stringify(pendingId)} (line ${call.line}) still waits for its tool_result`;
      ctx.report(flat ? 'tool.one-at-a-time' : 'tool.one-at-a-time-envelope', line, what);
    }
    if (id !== '' && !turn.pending.has(id)) turn.pending.set(id, { line, name, invalidArguments });
  }

  private onToolResult(event: Extract<CanonicalEvent, { kind: 'tool_result' }>): void {
    const ctx = this.ctx;
    const turn = this.turn;
    const { toolUseId: id, line } = event;
    const call = turn.pending.get(id);
    if (call) {
      turn.pending.delete(id);
      turn.answered.add(id);
      if (turn.pending.size === 0) turn.textWhilePendingReported = false;
      if (call.invalidArguments && !event.isError) {
        ctx.report(
          'tool.invalid-arguments',
          line,
          `tool_use ${JSON.stringify(id)} (line ${call.line}) had invalid arguments but its tool_result is not an error`,
        );
      }
      return;
    }
    if (turn.answered.has(id)) {
      ctx.report('tool.result-once', line, `second tool_result for ${JSON.stringify(id)}`);
      return;
    }
    const earlier = this.toolIds.get(id);
    ctx.report(
      'tool.result-pairs-use',
      line,
      earlier !== undefined
        ? `tool_result ${JSON.stringify(id)} answers a tool_use of an earlier turn (line ${earlier})`
        : `tool_result ${JSON.stringify(id)} answers no earlier tool_use`,
    );
  }

  private onResult(event: ResultEvent): void {
    const ctx = this.ctx;
    const turn = this.turn;
    const line = event.line;
    if (this.results > 0 && turn.events === 1) {
      ctx.report('turn.single-result', line, 'a second result with nothing of a new turn before it');
    }
    this.reportUnanswered(turn);
    if (turn.errorLine !== undefined && !event.isError) {
      ctx.report('error.no-success-after-error', line, `success result after the error at line ${turn.errorLine}`);
    }
    if (turn.interruptLine !== undefined && !event.isError) {
      ctx.report(
        'interrupt.error-result',
        line,
        `result after the interrupt at line ${turn.interruptLine} is not an error result`,
      );
    }
    this.sessionIds.onResult(event);
    if (!event.isError && event.subtype !== 'success') {
      ctx.report(
        'turn.success-subtype',
        line,
        event.subtype === undefined
          ? 'success result (is_error false) has no subtype'
          : `success result (is_error false) has subtype ${JSON.stringify(event.subtype)}`,
      );
    }
    const usage = event.usage;
    if (!event.isError && !turn.usageSeen && usage === undefined) {
      ctx.report('usage.present', line, 'completed turn without usage (no usage line and no result.usage)');
    }
    if (!event.isError && usage === undefined && !turn.nestedUsageSeen && turn.flatUsageLine !== undefined) {
      ctx.report(
        'app.usage-counted',
        line,
        `the turn's usage sits only on flat usage lines (the first at line ${turn.flatUsageLine}), which the app does not count: its token counter and context bar stay where they were for this turn`,
      );
    }
    // A successful /compact turn reports 0/0 on purpose: the app's only counter reset (compaction.ts judges it).
    const compacted = !event.isError && this.compaction.isCompactTurn();
    this.compaction.onResult(event);
    if (compacted) {
      this.endTurn();
      return;
    }
    if (usage && usage.inputTokens === 0 && usage.outputTokens === 0) {
      ctx.report('usage.not-zero', line, 'result.usage reports 0 input and 0 output tokens');
      ctx.report(
        'app.zero-usage-result',
        line,
        'result.usage is 0/0: the app replaces the result with "Conversation compacted" and resets its counters',
      );
    }
    if (usage?.estimated && !((usage.inputTokens ?? 0) > 0 && (usage.outputTokens ?? 0) > 0)) {
      ctx.report(
        'usage.estimated-positive',
        line,
        `estimated usage must be above 0 (input ${usage.inputTokens ?? '-'}, output ${usage.outputTokens ?? '-'})`,
      );
    }
    this.endTurn();
  }

  private endTurn(): void {
    this.results += 1;
    this.messageStopsAfterResult = 0;
    this.turn = newTurn();
  }

  private reportUnanswered(turn: TurnState): void {
    for (const [id, call] of turn.pending) {
      this.ctx.report(
        'tool.use-answered',
        call.line,
        `tool_use ${JSON.stringify(id)} (${call.name || 'unnamed'}) never got a tool_result in its turn`,
      );
    }
    turn.pending.clear();
  }

  /** Call once after the last event. */
  end(lastLine: number): void {
    const turn = this.turn;
    if (turn.events > 0) {
      this.reportUnanswered(turn);
      this.ctx.report(
        'turn.result-last',
        lastLine,
        this.results === 0
          ? 'the stream ends without a result'
          : `the turn that starts at line ${turn.firstLine} ends without a result`,
      );
    } else if (this.results === 0 && this.firstEventSeen) {
      this.ctx.report('turn.result-last', lastLine, 'the stream ends without a result');
    }
  }
}

function describeEvent(event: CanonicalEvent): string {
  switch (event.kind) {
    case 'system':
      return `system "${event.subtype}"`;
    case 'other':
      return `"${event.type}"`;
    default:
      return event.kind;
  }
}
