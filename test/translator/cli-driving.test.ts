// How the reference translator drives each official CLI: a missing binary, a prompt that looks like
// options, a resumed turn (the CLI's own session continues, ids stay unique), a silent command with side
// effects (run once), an interrupt while a tool runs (group signal, error tool_result, exit within 2 s).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OfficialCliName } from '../../harness/official-cli/script-types.js';
import type { StartEntry } from '../../harness/official-cli/state.js';
import { translatorShim } from './helpers/build-shim.js';
import { mustFindings, runWithFakeCli } from './helpers/cli-run.js';
import { DASH_PROMPT, INTERRUPT_DURING_TOOL, RESUMED_TOOLS, SILENT_SIDE_EFFECT } from './helpers/extra-scenarios.js';

const CLIS: OfficialCliName[] = ['gemini', 'codex', 'claude'];

describe.each(CLIS)('the %s translator', (cli) => {
  it('reports a missing binary as a system error and an error result (R5)', async () => {
    const run = await runWithFakeCli({ cli, scenario: DASH_PROMPT, shim: await translatorShim(), installed: [] });
    const lines = run.turns[0]!.lines;
    expect(mustFindings({ ...run, cliFindings: [] })).toEqual([]);
    const systemError = lines.find((line) => line.type === 'system' && line.subtype === 'error');
    expect(systemError?.message).toMatch(/not found on PATH/);
    expect(lines.at(-2)).toMatchObject({ type: 'result', is_error: true });
    expect(run.log).toEqual([]);
  });

  it('passes a prompt starting with "-" as the prompt', async () => {
    const run = await runWithFakeCli({ cli, scenario: DASH_PROMPT, shim: await translatorShim() });
    expect(mustFindings(run)).toEqual([]);
    const start = run.log.find((entry): entry is StartEntry => entry.event === 'start')!;
    expect(start.argError).toBeUndefined();
    expect(run.log.find((entry) => entry.event === 'prompt')).toMatchObject({ prompt: DASH_PROMPT.turns[0]!.prompt });
  });

  it('continues the CLI session on --resume and keeps tool ids unique across turns', async () => {
    const run = await runWithFakeCli({ cli, scenario: RESUMED_TOOLS, shim: await translatorShim() });
    expect(mustFindings(run)).toEqual([]);
    const starts = run.log.filter((entry): entry is StartEntry => entry.event === 'start');
    expect(starts).toHaveLength(2);
    expect(starts[1]!.resume).toBe(starts[0]!.sessionId);
    const ids = run.turns.flatMap((turn) =>
      turn.lines.filter((line) => line.type === 'tool_use').map((line) => line.id),
    );
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    const init = (turn: number) =>
      run.turns[turn]!.lines.find((line) => line.type === 'system' && line.subtype === 'init');
    expect(init(1)!.session_id).toBe(init(0)!.session_id);
  });

  it('leaves a silent command with side effects to the CLI (it runs once)', async () => {
    const run = await runWithFakeCli({ cli, scenario: SILENT_SIDE_EFFECT, shim: await translatorShim() });
    expect(mustFindings(run)).toEqual([]);
    expect(readFileSync(path.join(run.workspace, 'runs.log'), 'utf8')).toBe('ran\n');
  });

  it.runIf(process.platform !== 'win32')('interrupts a running tool through the process group (R6)', async () => {
    const run = await runWithFakeCli({ cli, scenario: INTERRUPT_DURING_TOOL, shim: await translatorShim() });
    const turn = run.turns[0]!;
    const context = `stdout:\n${turn.exit.stdout.toString('utf8')}\nstderr:\n${turn.exit.stderr.toString('utf8')}`;
    expect(turn.exitAfterInterruptMs, context).toBeDefined();
    expect(turn.exitAfterInterruptMs!, context).toBeLessThan(2000);
    expect(turn.exit.descendantsLeft, context).toEqual([]);
    expect(mustFindings(run), context).toEqual([]);
    const use = turn.lines.find((line) => line.type === 'tool_use');
    const answer = turn.lines.find((line) => line.type === 'tool_result');
    expect(use).toMatchObject({ name: 'Bash' });
    expect(answer).toMatchObject({ tool_use_id: use!.id, is_error: true });
    expect(turn.lines.map((line) => line.type).slice(-3)).toEqual(['interrupt', 'result', 'message_stop']);
  });
});
