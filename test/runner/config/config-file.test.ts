import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigFileError, checkConfigValue, loadJsonConfig } from '../../../harness/runner/config/config-file.js';

const SCHEMA = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    mode: { enum: ['a', 'b'] },
    examples: { type: 'array' },
  },
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'yume-config-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fileWith(text: string): string {
  const file = path.join(dir, 'config.json');
  writeFileSync(file, text);
  return file;
}

const load = (file: string) => loadJsonConfig<{ name: string }>(file, SCHEMA, '--opt', 'schemas/x.schema.json');

/** The error a load throws (the test fails if it throws none). */
function errorOf(run: () => unknown): ConfigFileError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigFileError);
    return error as ConfigFileError;
  }
  throw new Error('expected a ConfigFileError');
}

describe('loadJsonConfig', () => {
  it('returns a valid file as parsed', () => {
    expect(load(fileWith('{"name":"n","mode":"a"}'))).toEqual({ name: 'n', mode: 'a' });
  });

  it('names the file of one that cannot be read', () => {
    expect(errorOf(() => load(path.join(dir, 'missing.json'))).message).toContain('missing.json');
  });

  it('names the file and line of invalid JSON', () => {
    expect(errorOf(() => load(fileWith('{\n  "name": "n",\n}'))).message).toMatch(/config\.json:\d+/);
  });

  it('refuses unknown keys (a typo must not pass silently), pointing at the key and its line', () => {
    const message = errorOf(() => load(fileWith('{\n  "name": "n",\n  "nmae": "x"\n}'))).message;
    expect(message).toContain('config.json:3');
    expect(message).toContain('/nmae');
  });

  it('names a missing key and the allowed values of an enum', () => {
    expect(errorOf(() => load(fileWith('{}'))).message).toContain('"name"');
    expect(errorOf(() => load(fileWith('{"name":"n","mode":"c"}'))).message).toContain('"a", "b"');
  });
});

describe('checkConfigValue', () => {
  it('validates a value that was parsed elsewhere', () => {
    const check = { file: 'preset.json', schema: SCHEMA, what: '--preset', schemaName: 'x' };
    expect(checkConfigValue({ name: 'n' }, check)).toEqual({ name: 'n' });
    expect(errorOf(() => checkConfigValue({ name: 1 }, check)).message).toContain('preset.json');
  });
});
