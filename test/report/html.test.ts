// The HTML report: one self-contained page that escapes what it shows.
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderHtml } from '../../harness/report/html.js';

describe('the HTML report', () => {
  const report = {
    summary: { passed: 0, failed: 1, warnings: 0, notVerified: 0 },
    runs: [
      {
        scenario: 'single-tool',
        provider: 'openai-chat',
        status: 'failed' as const,
        findings: [{ rule: 'golden.text', severity: 'MUST' as const, message: 'text <differs> & "so"', line: 2 }],
      },
    ],
    verdict: 'failed' as const,
  };

  it('is one self-contained page that escapes what it shows', () => {
    const html = renderHtml(report);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html).toContain('text &lt;differs&gt; &amp; &quot;so&quot;');
    expect(html).toContain('<code>golden.text</code> <a href="#run-0-line-2">line 2</a>');
    expect(escapeHtml(`<a href='x'>`)).toBe('&lt;a href=&#39;x&#39;&gt;');
  });
});
