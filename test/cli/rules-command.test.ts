// `yume-conformance rules` as a user runs it: the whole catalog, as text and as JSON.
import { describe, expect, it } from 'vitest';
import { allRules } from '../../harness/rules/catalog.js';
import { runCli as run } from './helpers/run-cli.js';

describe.concurrent('yume-conformance rules', () => {
  it('lists every rule of the catalog', async () => {
    const r = await run(['rules']);
    expect(r.code).toBe(0);
    for (const rule of allRules()) expect(r.stdout).toContain(rule.id);
    expect(r.stdout).toContain(`${allRules().length} rules`);
  });

  it('prints the catalog as JSON, filtered by profile and level', async () => {
    const all = JSON.parse((await run(['rules', '--json'])).stdout);
    expect(all).toHaveLength(allRules().length);
    const app = JSON.parse((await run(['rules', '--json', '--profile', 'yume-app', '--level', 'stream'])).stdout) as {
      id: string;
      level: string;
    }[];
    expect(app.some((r) => r.id === 'app.duplicate-line')).toBe(true);
    expect(app.some((r) => r.id === 'framing.blank-line')).toBe(false);
    expect(app.every((r) => r.level === 'stream')).toBe(true);
  });
});
