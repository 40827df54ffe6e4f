// Keeps credentials out of everything the shim prints (tool output, error messages, logs).
// Two sources: the values of credential-looking environment variables (and tokens the shim obtained
// itself, e.g. from `gcloud auth print-access-token`), and the well-known shapes of provider keys.

import { includesAnyWord } from '../text/plain-match.js';

/** What a credential variable's name holds (any case). */
const CREDENTIAL_WORDS = ['API_KEY', 'APIKEY', 'TOKEN', 'SECRET', 'PASSWORD', 'ACCESS_KEY', 'PRIVATE_KEY'];
/** Each well-known key shape, with what every match of it starts with. */
const KEY_SHAPES: ReadonlyArray<{ pattern: string; prefixes: readonly string[] }> = [
  // OpenAI / Anthropic keys (and the suite's dummies)
  { pattern: 'sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}', prefixes: ['sk-'] },
  // Google OAuth access tokens
  { pattern: 'ya29\\.[A-Za-z0-9_.-]{10,}', prefixes: ['ya29.'] },
  // GitHub tokens
  { pattern: 'gh[opsu]_[A-Za-z0-9_]{10,}', prefixes: ['gho_', 'ghp_', 'ghs_', 'ghu_'] },
  // Google API keys
  { pattern: 'AIza[0-9A-Za-z_-]{30,}', prefixes: ['AIza'] },
];
const KEY_PREFIXES = KEY_SHAPES.flatMap((shape) => shape.prefixes);
export const REDACTED = '[REDACTED]';
// Values shorter than this are too likely to appear in ordinary text ("1", "true", "dev").
const MIN_SECRET_LENGTH = 6;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class SecretRedactor {
  private readonly values = new Set<string>();
  /** Built when a text first needs it (most never do): compiling and running it is most of a line's cost. */
  private pattern: RegExp | undefined;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    // Names first: reading a value of process.env is a call into Node, and few names qualify.
    for (const name of Object.keys(env)) {
      if (!includesAnyWord(name, CREDENTIAL_WORDS)) continue;
      const value = env[name];
      if (value) this.addValue(value);
    }
  }

  /** Adds a secret learnt at run time (a token printed by gcloud, for instance). */
  add(secret: string): void {
    const before = this.values.size;
    this.addValue(secret.trim());
    if (this.values.size !== before) this.pattern = undefined;
  }

  redact(text: string): string {
    if (!this.mayHoldSecret(text)) return text;
    this.pattern ??= this.build();
    this.pattern.lastIndex = 0;
    if (!this.pattern.test(text)) return text;
    this.pattern.lastIndex = 0;
    return text.replace(this.pattern, REDACTED);
  }

  /** Every match holds a secret's own text or a key shape's prefix: without either, nothing can match. */
  private mayHoldSecret(text: string): boolean {
    for (const prefix of KEY_PREFIXES) if (text.includes(prefix)) return true;
    for (const value of this.values) if (text.includes(value)) return true;
    return false;
  }

  private addValue(value: string): void {
    if (value.length < MIN_SECRET_LENGTH) return;
    this.values.add(value);
    // The same secret as it appears inside a JSON string (quotes and backslashes escaped).
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value) this.values.add(escaped);
  }

  private build(): RegExp {
    const literal = [...this.values].sort((a, b) => b.length - a.length).map(escapeRegExp);
    return new RegExp([...literal, ...KEY_SHAPES.map((shape) => shape.pattern)].join('|'), 'g');
  }
}
