import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, secretValues } from '../../harness/runner/redact.js';

describe('secretValues', () => {
  it('takes long values of secret-looking names, not paths, short values or other names', () => {
    expect(
      secretValues({
        MY_API_KEY: 'abcdefgh1234',
        SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
        GITHUB_TOKEN: 'short',
        HOME: '/home/user-with-a-long-name',
        EDITOR: 'something-long-enough',
        UNSET_SECRET: undefined,
      }),
    ).toEqual(['abcdefgh1234']);
  });
});

describe('Redactor', () => {
  it('replaces a secret as written and as escaped inside a JSON string', () => {
    const secret = 'pa"ss\\word-123';
    const redactor = new Redactor([secret]);
    expect(redactor.text(`plain ${secret} and json ${JSON.stringify(secret)}`)).toBe(
      `plain ${REDACTED} and json "${REDACTED}"`,
    );
  });

  it('replaces the longest secret whole when one contains another, and ignores values too short to be secrets', () => {
    const redactor = new Redactor(['abcdefgh', 'abcdefgh-extended', 'short']);
    expect(redactor.text('x abcdefgh-extended y short')).toBe(`x ${REDACTED} y short`);
  });

  it('replaces known key shapes whoever they belong to', () => {
    const redactor = new Redactor([]);
    expect(redactor.text('key sk-abcdefghijklmnopqrstuv end')).toBe(`key ${REDACTED} end`);
    expect(redactor.text('token ya29.abcdefghijklmnopqrstu')).toBe(`token ${REDACTED}`);
    expect(redactor.text('nothing secret here')).toBe('nothing secret here');
  });

  it('finds each key shape and each secret anywhere in a long text, and returns a text without one as it was', () => {
    const redactor = new Redactor(['run-secret-22']);
    const filler = 'part 7 line 12: the session grows by this text. '.repeat(20_000);
    const keys = [
      'run-secret-22',
      'sk-ant-abcdefghijklmnopqrstuv',
      'AIzaabcdefghijklmnopqrstuvwx',
      'ghp_abcdefghijklmnopqrst',
      'github_pat_abcdefghijklmnopqrstuvwx',
      'xoxb-abcdefghijkl',
      'ya29.abcdefghijklmnopqrstu',
      'AKIAABCDEFGHIJKLMNOP',
      'yume-conformance-gemini-abc',
    ];
    for (const key of keys) expect(redactor.text(`${filler}${key} ${filler}`)).toBe(`${filler}${REDACTED} ${filler}`);
    expect(redactor.text(filler)).toBe(filler);
  });

  it("with() adds a run's secrets to the suite's without changing the suite's redactor", () => {
    const suite = new Redactor(['suite-secret-1']);
    const run = suite.with(['run-secret-22']);
    expect(run.text('suite-secret-1 run-secret-22')).toBe(`${REDACTED} ${REDACTED}`);
    expect(suite.text('run-secret-22')).toBe('run-secret-22');
  });
});
