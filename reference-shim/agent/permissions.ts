// Permission modes (docs/protocol.md "Permission modes"): default/auto run tools, deny answers
// every call with an error and runs nothing, interactive waits for a `tool_approval` frame per call.
// The claude CLI's mode names are accepted as their nearest equivalent.
import type { InterruptSignal } from '../tools/interrupt.js';

export type Decision = 'run' | 'deny' | 'interrupted' | 'no-channel';

export const PERMISSION_MODES = ['default', 'auto', 'deny', 'interactive', 'acceptEdits', 'bypassPermissions', 'plan'];

function policyOf(mode: string): 'run' | 'deny' | 'ask' {
  if (mode === 'deny' || mode === 'plan') return 'deny';
  if (mode === 'interactive') return 'ask';
  return 'run'; // default, auto, acceptEdits, bypassPermissions, and anything newer degrades to default
}

interface Pending {
  ids: string[];
  siblingIds: readonly string[];
  resolve: (approved: boolean) => void;
}

export class PermissionGate {
  private readonly early = new Map<string, boolean>();
  private pending: Pending | undefined;

  constructor(
    public mode: string,
    /** Whether tool_approval frames can arrive at all (persistent mode). */
    private readonly approvalChannel: boolean,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /**
   * Decides one call; `ids` are its printed id and the provider's id (a frame may name either), `siblingIds`
   * those of the other calls of the same model message.
   */
  async decide(ids: string[], signal: InterruptSignal, siblingIds: readonly string[] = []): Promise<Decision> {
    const policy = policyOf(this.mode);
    if (policy === 'run') return 'run';
    if (policy === 'deny') return 'deny';
    if (!this.approvalChannel) return 'no-channel';
    for (const id of ids) {
      const answer = this.early.get(id);
      if (answer !== undefined) {
        this.early.delete(id);
        return answer ? 'run' : 'deny';
      }
    }
    // Answers sent ahead under ids we never printed (nor will: `siblingIds` are the other calls of the same
    // model message) are taken in call order.
    for (const [id, answer] of this.early) {
      if (siblingIds.includes(id)) continue;
      this.early.delete(id);
      this.log(`tool_approval for ${id} applied to call ${ids[0]}`);
      return answer ? 'run' : 'deny';
    }
    if (signal.aborted) return 'interrupted';
    return new Promise<Decision>((resolve) => {
      const onAbort = (): void => {
        this.pending = undefined;
        resolve('interrupted');
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        ids,
        siblingIds,
        resolve: (approved) => {
          signal.removeEventListener('abort', onAbort);
          this.pending = undefined;
          resolve(approved ? 'run' : 'deny');
        },
      };
    });
  }

  /**
   * A tool_approval frame. An answer for a later call of the same model message is kept until that call
   * waits; an id naming nothing we know, while one call waits, can only mean that call.
   */
  approve(id: string | undefined, approved: boolean): void {
    const pending = this.pending;
    if (pending && (id === undefined || pending.ids.includes(id))) {
      pending.resolve(approved);
      return;
    }
    if (id === undefined) {
      this.log('tool_approval without an id while no call is waiting: ignored');
      return;
    }
    if (pending && !pending.siblingIds.includes(id)) {
      // The client named an id we never printed (e.g. its own numbering); with one call waiting it can only mean that one.
      this.log(`tool_approval for unknown id ${id}: applied to the waiting call ${pending.ids[0]}`);
      pending.resolve(approved);
      return;
    }
    this.early.set(id, approved);
  }
}
