// Normalisation: workspace and HOME paths, line endings, tool inputs and tool_result text in every shape.
import { describe, expect, it } from 'vitest';
import {
  normalisePath,
  normaliseText,
  normaliseToolInput,
  toolResultText,
  withoutDefaultInputs,
} from '../../harness/golden/normalise.js';

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

  it('keeps a `__proto__` key of a tool input as an own key, as JSON.parse gives it (never the prototype)', () => {
    const input = JSON.parse('{"__proto__":{"polluted":true},"file_path":"a.txt"}') as object;
    const normalised = normaliseToolInput(input, unix) as Record<string, unknown>;
    expect(Object.keys(normalised)).toEqual(['__proto__', 'file_path']);
    expect(Object.getPrototypeOf(normalised)).toBe(Object.prototype);
    expect(JSON.stringify(normalised)).toBe('{"__proto__":{"polluted":true},"file_path":"<cwd>/a.txt"}');
    // The same key nested deeper, and inside an array, stays too.
    const nested = JSON.parse('{"a":[{"__proto__":{"x":1}}]}') as object;
    expect(JSON.stringify(normaliseToolInput(nested, unix))).toBe('{"a":[{"__proto__":{"x":1}}]}');
  });

  it('drops default inputs by own keys only: a `__proto__` key survives, a tool named `__proto__` has no defaults', () => {
    const edit = JSON.parse('{"__proto__":{"replace_all":true},"replace_all":false,"file_path":"a"}') as object;
    expect(JSON.stringify(withoutDefaultInputs('Edit', edit))).toBe(
      '{"__proto__":{"replace_all":true},"file_path":"a"}',
    );
    const odd = JSON.parse('{"replace_all":false}') as object;
    expect(withoutDefaultInputs('__proto__', odd)).toBe(odd);
    expect(withoutDefaultInputs('constructor', odd)).toBe(odd);
  });
});
