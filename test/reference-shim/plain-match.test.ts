// The string-method checks that stand in for regular expressions on the shim's start-up path
// (reference-shim/text/plain-match.ts), held to the patterns they replace on a spread of inputs.
import { describe, expect, it } from 'vitest';
import {
  fileNameSafe,
  includesAnyWord,
  isIdText,
  withoutTrailingSlashes,
} from '../../reference-shim/text/plain-match.js';

const SAMPLES = [
  '',
  'a',
  'sess-abc_DEF-123',
  'sess.abc',
  'with space',
  '../up',
  'x/y\\z',
  'émoji-😀',
  'tab\there',
  'http://127.0.0.1:4000/v1',
  'http://127.0.0.1:4000/v1/',
  'https://api.openai.com/v1///',
  '/',
  '///',
  'OPENAI_API_KEY',
  'github_token',
  'MY_SECRET_VALUE',
  'db_password',
  'AWS_ACCESS_KEY_ID',
  'ssh_private_key',
  'APIKEY',
  'PATH',
  'HOME',
  'TOKENIZER_PATH',
  'x'.repeat(128),
  'x'.repeat(129),
  'codex-cli',
  'gemini cli',
  'v22.23.3-x64',
];

describe('plain string checks match the patterns they replace', () => {
  it('isIdText is /^[A-Za-z0-9_-]{1,128}$/', () => {
    for (const text of SAMPLES) expect(isIdText(text, 128), text).toBe(/^[A-Za-z0-9_-]{1,128}$/.test(text));
  });

  it("fileNameSafe is replace(/[^A-Za-z0-9_.-]/g, '_')", () => {
    for (const text of SAMPLES) expect(fileNameSafe(text), text).toBe(text.replace(/[^A-Za-z0-9_.-]/g, '_'));
  });

  it("withoutTrailingSlashes is replace(/\\/+$/, '')", () => {
    for (const text of SAMPLES) expect(withoutTrailingSlashes(text), text).toBe(text.replace(/\/+$/, ''));
  });

  it('includesAnyWord is a case-insensitive alternation of the words', () => {
    const words = ['API_KEY', 'APIKEY', 'TOKEN', 'SECRET', 'PASSWORD', 'ACCESS_KEY', 'PRIVATE_KEY'];
    const pattern = /(API_KEY|APIKEY|TOKEN|SECRET|PASSWORD|ACCESS_KEY|PRIVATE_KEY)/i;
    for (const text of SAMPLES) expect(includesAnyWord(text, words), text).toBe(pattern.test(text));
  });
});
