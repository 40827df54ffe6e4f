// docs/writing-a-shim.md answers the questions a first shim author had to guess, each under a stable heading that
// the protocol and the README link to; where an answer states a number the code decides, the code is asked.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllScenarios } from '../../harness/mock/scenario/scenario-loader.js';
import { documentSections } from '../../harness/rules/sources.js';
import { capabilitiesFrom } from '../../harness/runner/config/capabilities.js';
import { buildMatrix } from '../../harness/suite/matrix.js';

const root = path.join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The answers, by the doc and anchor where a shim author finds each. */
const ANSWERS: [string, string][] = [
  ['docs/writing-a-shim.md', 'tool-results-sent-to-the-provider'],
  ['docs/writing-a-shim.md', 'resuming-a-session'],
  ['docs/writing-a-shim.md', 'what-the-app-passes-on-a-first-turn'],
  ['docs/writing-a-shim.md', 'the-history-file'],
  ['docs/writing-a-shim.md', 'where-usage-may-go'],
  ['docs/protocol.md', 'r4a-usage-under-each-profile'],
  ['docs/writing-a-shim.md', 'gemini-thinking-tokens'],
  ['docs/writing-a-shim.md', 'retries-and-their-waits'],
  ['docs/writing-a-shim.md', 'large-tool-output'],
  ['docs/writing-a-shim.md', 'session-history-for-anthropic-and-claude-cli'],
  ['docs/writing-a-shim.md', 'interactive-mode-without-persistent-mode'],
  ['docs/writing-a-shim.md', 'a-stream-that-ends-without-its-finish-marker'],
  ['docs/writing-a-shim.md', 'a-launcher-on-windows-cmd'],
  ['docs/writing-a-shim.md', 'which-runs-a-plain-run-makes'],
  ['docs/writing-a-shim.md', 'providers-the-app-cannot-start'],
  ['docs/writing-a-shim.md', 'a-shim-for-the-yume-app'],
  ['docs/writing-a-shim.md', 'features-and-the-scenarios-they-unlock'],
  ['docs/writing-a-shim.md', 'why-the-goldens-hold-api_retry-lines'],
];

/** Links of the form [text](file.md#anchor) or [text](#anchor) in `markdown`, resolved against `file`. */
function links(file: string, markdown: string): [string, string][] {
  return [...markdown.matchAll(/\]\(((?:[\w./-]+\.md)?)#([^)]+)\)/g)].map(([, target, anchor]) => [
    target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target!)) : file,
    anchor!,
  ]);
}

describe('docs/writing-a-shim.md', () => {
  it('keeps a heading for every answer', () => {
    const missing = ANSWERS.filter(([file, anchor]) => !documentSections(read(file)).has(anchor));
    expect(missing).toEqual([]);
  });

  it('every link between the guide, the protocol, the architecture notes and the README resolves', () => {
    const files = ['README.md', 'docs/writing-a-shim.md', 'docs/protocol.md', 'docs/architecture.md'];
    const sections = new Map(files.map((file) => [file, documentSections(read(file))]));
    const broken = files.flatMap((file) =>
      links(file, read(file))
        .filter(([target, anchor]) => sections.has(target) && !sections.get(target)!.has(anchor))
        .map(([target, anchor]) => `${file} links to ${target}#${anchor}`),
    );
    expect(links('docs/protocol.md', read('docs/protocol.md')).length).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it('states the runs a plain run makes for its example as the matrix builds them', () => {
    const required = ['plain-text', 'single-tool', 'multi-tool', 'tool-error', 'interrupt'];
    const scenarios = loadAllScenarios(path.join(root, 'transcripts')).filter((s) => required.includes(s.id));
    const runs = buildMatrix({
      scenarios,
      providers: ['gemini', 'anthropic'],
      capabilities: capabilitiesFrom({ providers: ['gemini', 'anthropic'] }, 'the guide'),
      full: false,
      seed: 1,
    });
    const guide = read('docs/writing-a-shim.md').replace(/\s+/g, ' ');
    const stated =
      /are (\d+) runs, and a plain run makes (\d+): (\d+) under the `yume-app` invocation, (\d+) under the `yume-app` profile and (\d+) re-chunked/.exec(
        guide,
      );
    expect(stated, 'the example sentence of "Which runs a plain run makes"').not.toBeNull();
    const count = (test: (run: (typeof runs)[number]) => boolean) => runs.filter(test).length;
    expect(stated!.slice(1).map(Number)).toEqual([
      count((run) => run.invocation.kind === 'spec' && run.profile === 'spec' && run.seed === undefined),
      runs.length,
      count((run) => run.invocation.kind === 'yume-app'),
      count((run) => run.invocation.kind === 'spec' && run.profile === 'yume-app'),
      count((run) => run.seed !== undefined),
    ]);
  });
});
