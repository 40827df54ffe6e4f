// The HTML report and the interop matrix in a real browser (Debian's chromium, headless, driven by
// playwright-core): the report of a failing run loads without console errors, the failing run's section is
// open and its failing line highlighted, a link to a closed run's anchor opens it; the interop matrix of two
// shims loads without errors and its cells lead to the runs. Screenshots go to reports/ (a CI artifact).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureShim, root } from '../runner/helpers/run-fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const SCENARIOS = ['--scenario', 'plain-text,single-tool', '--provider', 'openai-chat'];

function cli(args: string[]): { status: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(root, 'dist', 'cli.js'), ...args], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stderr: result.stderr };
}

describe('reports in headless Chromium', () => {
  let work: string;
  let context: BrowserContext;
  const file = (name: string) => path.join(work, name);
  const screenshots = path.join(root, 'reports');

  /** Opens `url`; returns the page and the console errors and page errors seen while it loaded. */
  async function open(url: string): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url, { waitUntil: 'load' });
    return { page, errors };
  }

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'yume-html-real-'));
    mkdirSync(screenshots, { recursive: true });
    // A shim that fails single-tool (tool_result before its tool_use) and passes plain-text.
    const broken = cli([
      fixtureShim('swaps-tool-use-and-result.mjs'),
      ...SCENARIOS,
      '--reporter',
      `json:${file('broken.json')}`,
      '--reporter',
      `html:${file('broken.html')}`,
    ]);
    expect(broken.status, broken.stderr).toBe(1);
    const reference = cli([...SCENARIOS, '--reporter', `json:${file('reference.json')}`]);
    expect(reference.status, reference.stderr).toBe(0);
    const interop = cli([
      'merge-reports',
      '--interop',
      file('broken.json'),
      file('reference.json'),
      '--out-dir',
      file('interop'),
    ]);
    expect(interop.status, interop.stderr).toBe(0);
    context = await chromium.launchPersistentContext(mkdtempSync(path.join(work, 'profile-')), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows a failing run open with its failing line highlighted, without console errors', async () => {
    const { page, errors } = await open(pathToFileURL(file('broken.html')).href);
    const failed = page.locator('details.run.failed').first();
    expect(await failed.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
    const line = failed.locator('tr.failing').first();
    expect(await line.isVisible()).toBe(true);
    expect(await line.getAttribute('id')).toMatch(/^run-\d+-line-\d+$/);
    const background = await line
      .locator('td')
      .first()
      .evaluate((cell) => getComputedStyle(cell).backgroundColor);
    expect(background).toBe('rgb(253, 226, 225)');
    await line.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshots, 'html-report.png') });
    // Passing runs are closed; a link to one's anchor opens it.
    const passed = page.locator('details.run.passed').first();
    expect(await passed.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
    const anchor = await passed.locator('div.body').getAttribute('id');
    await page.goto(`${pathToFileURL(file('broken.html')).href}#${anchor}`);
    expect(await passed.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows the interop matrix, whose cells lead to the runs, without console errors', async () => {
    const { page, errors } = await open(pathToFileURL(file(path.join('interop', 'index.html'))).href);
    expect(await page.locator('thead th').count()).toBe(4); // scenario, provider, two shims
    const failing = page.locator('td.c.failed a').first();
    expect(await failing.count()).toBe(1);
    expect(await page.locator('td.c.passed a').count()).toBeGreaterThan(1);
    await page.screenshot({ path: path.join(screenshots, 'interop-matrix.png'), fullPage: true });
    await failing.click();
    await page.waitForLoadState('load');
    expect(page.url()).toMatch(/shim-1\.html#run-\d+$/);
    const target = page.locator(`[id="${new URL(page.url()).hash.slice(1)}"]`);
    expect(await target.isVisible()).toBe(true);
    expect(await target.locator('xpath=..').evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
    expect(errors).toEqual([]);
  });
});
