// Keeps credentials out of everything the shim prints (tool output, error messages, logs).
// Two sources: the values of credential-looking environment variables (and tokens the shim obtained
// itself, e.g. from `gcloud auth print-access-token`), and the well-known shapes of provider keys.

const CREDENTIAL_NAME = /(API_KEY|APIKEY|TOKEN|SECRET|PASSWORD|ACCESS_KEY|PRIVATE_KEY)/i;
const KEY_SHAPES = [
  'sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}', // OpenAI / Anthropic keys (and the suite's dummies)
  'ya29\\.[A-Za-z0-9_.-]{10,}', // Google OAuth access tokens
  'gh[opsu]_[A-Za-z0-9_]{10,}', // GitHub tokens
  'AIza[0-9A-Za-z_-]{30,}', // Google API keys
];
export const REDACTED = '[REDACTED]';
// Values shorter than this are too likely to appear in ordinary text ("1", "true", "dev").
const MIN_SECRET_LENGTH = 6;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class SecretRedactor {
  private readonly values = new Set<string>();
  private pattern: RegExp;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    for (const [name, value] of Object.entries(env)) {
      if (value && CREDENTIAL_NAME.test(name)) this.addValue(value);
    }
    this.pattern = this.build();
  }

  /** Adds a secret learnt at run time (a token printed by gcloud, for instance). */
  add(secret: string): void {
    const before = this.values.size;
    this.addValue(secret.trim());
    if (this.values.size !== before) this.pattern = this.build();
  }

  redact(text: string): string {
    this.pattern.lastIndex = 0;
    if (!this.pattern.test(text)) return text;
    this.pattern.lastIndex = 0;
    return text.replace(this.pattern, REDACTED);
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
    return new RegExp([...literal, ...KEY_SHAPES].join('|'), 'g');
  }
}
