// Golden files: one per process, with what changes on every run stabilised.
import { describe, expect, it } from 'vitest';
import { goldenFileName, goldenText } from '../../../harness/golden/compare/golden-files.js';

describe('golden files (D3)', () => {
  it('names one golden per process', () => {
    expect([0, 1, 2].map(goldenFileName)).toEqual(['golden.jsonl', 'golden.2.jsonl', 'golden.3.jsonl']);
  });

  it('stabilises what changes on every run: paths, session ids, uuids, durations, cost', () => {
    const stdout = Buffer.from(
      '{"type":"system","subtype":"init","session_id":"s-9","cwd":"/tmp/r/workspace","uuid":"u1"}\r\n' +
        '{"type":"result","is_error":false,"session_id":"s-9","duration_ms":81,"duration_api_ms":70,"total_cost_usd":0.01,"uuid":"u2","result":"wrote /tmp/r/workspace/a"}\n',
    );
    expect(goldenText(stdout, { workspace: '/tmp/r/workspace' })).toBe(
      '{"type":"system","subtype":"init","session_id":"golden-session","cwd":"<cwd>","uuid":"golden-uuid-1"}\n' +
        '{"type":"result","is_error":false,"session_id":"golden-session","duration_ms":0,"duration_api_ms":0,"total_cost_usd":0,"uuid":"golden-uuid-2","result":"wrote <cwd>/a"}\n',
    );
  });

  it('keeps a `__proto__` key as an own key, and treats no inherited name as volatile', () => {
    const stdout = Buffer.from(
      '{"type":"tool_use","id":"t1","name":"Read","input":{"__proto__":{"polluted":true},"file_path":"/tmp/r/workspace/a"}}\n' +
        '{"type":"text","content":"x","constructor":"kept","toString":"kept"}\n',
    );
    expect(goldenText(stdout, { workspace: '/tmp/r/workspace' })).toBe(
      '{"type":"tool_use","id":"t1","name":"Read","input":{"__proto__":{"polluted":true},"file_path":"<cwd>/a"}}\n' +
        '{"type":"text","content":"x","constructor":"kept","toString":"kept"}\n',
    );
  });
});
