// The live stdout watcher: lines split on 0x0A as they arrive, and waits for an event.
import { describe, expect, it } from 'vitest';
import { isAssistantText, LiveStdout } from '../../../harness/runner/execution/live-stdout.js';

describe('LiveStdout', () => {
  it('splits chunks on 0x0A only, across chunk boundaries, and resolves waits in order', async () => {
    const live = new LiveStdout();
    const firstText = live.waitFor(isAssistantText);
    const bytes = Buffer.from(
      '{"type":"system","subtype":"init"}\n{"type":"text","content":"h\u00e9"}\r\nnot json\n{"type":"result","is_error":false}',
    );
    live.push(bytes.subarray(0, 40), 1);
    live.push(bytes.subarray(40, 60), 2); // cuts the é in the middle
    live.push(bytes.subarray(60), 3);
    expect(await firstText).toMatchObject({ event: { kind: 'text', line: 2, text: 'hé' }, atMs: 3 });
    expect(live.count('result')).toBe(0); // the last line has no newline yet
    live.push(Buffer.from('\n'), 4);
    expect(live.events.map((timed) => timed.event.kind)).toEqual(['init', 'text', 'result']);
    const never = live.waitFor((event) => event.kind === 'interrupt');
    live.close();
    expect(await never).toBeUndefined();
  });
});
