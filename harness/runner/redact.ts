// Redaction of everything a report stores or shows (JSON, HTML, JUnit, human output, CI annotations, finding
// excerpts, artifacts). A shim can read its parent's environment and print it, so before any text is cut or
// rendered it is decoded (UTF-8) and these are replaced by [redacted]:
//   - the run's own credentials: the values of every credential-like variable of the environment the shim
//     ran with (the dummy keys, whatever their form), and every known dummy value;
//   - the runner's own environment values that look like secrets (a name with KEY, TOKEN, SECRET, PASSWORD,
//     CREDENTIAL, ... and a value long enough to be one);
//   - known key shapes (sk-…, AIza…, ghp_…/gho_…, github_pat_…, xox…-, ya29.…, AKIA…), whoever's they are.
// A secret is matched as written and as it appears inside a JSON string (escaped).
import { ALL_DUMMY_SECRETS } from './setup/environment.js';

export const REDACTED = '[redacted]';

/** Variable names whose values are treated as secrets. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW(?:OR)?D|CREDENTIAL|PRIVATE|AUTH|COOKIE|SESSION|SIGNATURE|CERT/i;
/** Shorter values are not secrets (flags, counts, "true"), and redacting them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 8;

/** Key shapes worth hiding wherever they come from. */
export const KNOWN_KEY_PATTERNS: readonly RegExp[] = [
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9_]{16,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bya29\.[0-9A-Za-z._-]{16,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\byume-conformance-gemini-[A-Za-z0-9_-]+/g,
];

/** Values of `env` whose names look like secrets (paths and short values left out). */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_SECRET_LENGTH || !SECRET_NAME.test(name)) continue;
    if (/^(?:\/|[A-Za-z]:[\\/])/.test(value)) continue; // a path (SSH_AUTH_SOCK, ...): not a secret
    values.push(value);
  }
  return values;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Redactor {
  private readonly secrets: readonly string[];
  private readonly literal: RegExp | undefined;
  /** Any secret or key shape at all: one pass that lets text without one through untouched. */
  private readonly any: RegExp;

  constructor(secrets: Iterable<string>) {
    this.secrets = [...new Set(secrets)];
    const forms = new Set<string>();
    for (const secret of this.secrets) {
      if (secret.length < MIN_SECRET_LENGTH) continue;
      forms.add(secret);
      forms.add(JSON.stringify(secret).slice(1, -1));
    }
    // Longest first, so a secret that contains another is replaced whole.
    const sorted = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
    this.literal = sorted.length > 0 ? new RegExp(sorted.join('|'), 'g') : undefined;
    const sources = [...(this.literal ? [this.literal.source] : []), ...KNOWN_KEY_PATTERNS.map((key) => key.source)];
    this.any = new RegExp(sources.join('|'));
  }

  /** The suite's redactor: the runner's secret-looking variables and every dummy credential. */
  static forRunner(env: Readonly<Record<string, string | undefined>> = process.env): Redactor {
    return new Redactor([...secretValues(env), ...ALL_DUMMY_SECRETS]);
  }

  /** A redactor that also knows one run's own secrets (its environment's credential-like values). */
  with(secrets: Iterable<string>): Redactor {
    return new Redactor([...this.secrets, ...secrets]);
  }

  text(text: string): string {
    // A run's request bodies carry the whole history, so a long session hands over many megabytes, nearly always
    // without a secret: one scan of the alternation costs about a fifth of the replacements' nine. It matches
    // where any of them would, so the text it lets through is what they would have returned.
    if (!this.any.test(text)) return text;
    let out = this.literal ? text.replace(this.literal, REDACTED) : text;
    for (const pattern of KNOWN_KEY_PATTERNS) out = out.replace(pattern, REDACTED);
    return out;
  }
}
