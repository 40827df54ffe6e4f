// scripts/vitest-lanes.mjs runs each vitest config to its end, in order, even after one failed, and its exit code
// says whether any failed: `npm run test:real` relies on it to run the load lane after the real programs' tests
// and still fail CI when the first lane failed. Real vitest runs, on two throwaway configs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = path.resolve('scripts', 'vitest-lanes.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'yume-vitest-lanes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A config whose one test passes or fails, and writes its name into `order` when it runs. */
function lane(name: string, passes: boolean): string {
  writeFileSync(
    path.join(dir, `${name}.lane.test.mjs`),
    `import { appendFileSync } from 'node:fs';
import { it, expect } from 'vitest';
it('${name}', () => { appendFileSync(${JSON.stringify(path.join(dir, 'order'))}, '${name}\\n'); expect(${passes}).toBe(true); });
`,
  );
  const config = path.join(dir, `${name}.config.mjs`);
  writeFileSync(
    config,
    `export default { test: { root: ${JSON.stringify(dir)}, include: ['${name}.lane.test.mjs'], reporters: ['dot'] } };\n`,
  );
  return config;
}

const runLanes = (...configs: string[]) =>
  spawnSync(process.execPath, [script, ...configs], { cwd: path.resolve('.'), encoding: 'utf8', timeout: 120_000 });

describe('vitest-lanes.mjs', () => {
  it('runs every config in order, the second after the first failed, and exits 1 naming the failed one', () => {
    rmSync(path.join(dir, 'order'), { force: true });
    const failing = lane('first', false);
    const passing = lane('second', true);
    const result = runLanes(failing, passing);
    expect(readFileSync(path.join(dir, 'order'), 'utf8')).toBe('first\nsecond\n');
    expect(result.status, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toContain(`vitest lanes: failed: ${failing}`);
    expect(result.stdout).not.toContain(`failed: ${failing}, ${passing}`);
  }, 150_000);

  it('exits 0 when every config passed', () => {
    const result = runLanes(lane('third', true), lane('fourth', true));
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/third\.config\.mjs: exit 0 in \d+ s/);
    expect(result.stdout).toMatch(/fourth\.config\.mjs: exit 0 in \d+ s/);
  }, 150_000);

  it('refuses to run without a config, with its usage', () => {
    const result = runLanes();
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: node scripts/vitest-lanes.mjs <vitest config>');
  });
});
