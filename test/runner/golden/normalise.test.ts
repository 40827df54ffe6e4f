// Normalisation: workspace and HOME paths, line endings, tool inputs and tool_result text in every shape.
import { describe, expect, it } from 'vitest';
import {
  normalisePath,
  normaliseText,
  normaliseToolInput,
  toolResultText,
} from '../../../harness/runner/golden/normalise.js';

describe('normalisation (R10)', () => {
  const unix = { workspace: '/tmp/yc-1/workspace', home: '/tmp/yc-1/home' };
  const windows = { workspace: 'C:\\Users\\ci\\AppData\\Local\\Temp\\yc-1\\workspace' };

  it('replaces the workspace and HOME in every spelling, longest first, and line endings', () => {
    expect(normaliseText('cwd /tmp/yc-1/workspace/a, home /tmp/yc-1/home/.yume\r\nend', unix)).toBe(
      'cwd <cwd>/a, home <home>/.yume\nend',
    );
    expect(normaliseText('at C:\\Users\\ci\\AppData\\Local\\Temp\\yc-1\\workspace\\x.txt', windows)).toBe(
      'at <cwd>\\x.txt',
    );
    expect(normaliseText(JSON.stringify('C:\\Users\\ci\\AppData\\Local\\Temp\\yc-1\\workspace'), windows)).toBe(
      '"<cwd>"',
    );
    expect(normaliseText('C:/Users/ci/AppData/Local/Temp/yc-1/workspace/y', windows)).toBe('<cwd>/y');
  });

  it('writes file paths as <cwd>/relative whatever form the shim printed', () => {
    for (const form of ['notes.txt', './notes.txt', '/tmp/yc-1/workspace/notes.txt', 'sub/../notes.txt']) {
      expect(normalisePath(form, unix)).toBe('<cwd>/notes.txt');
    }
    expect(normalisePath('C:\\Users\\ci\\AppData\\Local\\Temp\\yc-1\\workspace\\dir\\n.txt', windows)).toBe(
      '<cwd>/dir/n.txt',
    );
    expect(normalisePath('/etc/passwd', unix)).toBe('/etc/passwd');
    expect(
      normaliseToolInput({ file_path: 'a.txt', content: 'in /tmp/yc-1/workspace', z: 1, a: [{ path: '.' }] }, unix),
    ).toEqual({
      a: [{ path: '<cwd>' }],
      content: 'in <cwd>',
      file_path: '<cwd>/a.txt',
      z: 1,
    });
  });

  it('reads tool_result content as text in each shape the app accepts', () => {
    expect(toolResultText('plain')).toBe('plain');
    expect(
      toolResultText([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('a\nb');
    expect(toolResultText({ output: 'out' })).toBe('out');
    expect(toolResultText({ content: 'c' })).toBe('c');
    expect(toolResultText(null)).toBe('');
  });
});
