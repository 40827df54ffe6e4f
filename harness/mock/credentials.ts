// Decision D2: the dummy credentials the runner sets and the mocks accept. Each run gets its own: D2's value
// plus a per-run suffix, so one run's shim cannot use another run's mock (which accepts only its own run's),
// while the secrets check and redaction still recognise every run's keys by D2's prefix.
import { randomBytes } from 'node:crypto';

/** D2's values: the prefix of every run's credentials, and what `serve` and a mock without options accept. */
export const DUMMY_CREDENTIALS = {
  openaiApiKey: 'sk-yume-conformance-openai-dummy',
  anthropicApiKey: 'sk-ant-yume-conformance-dummy',
  geminiApiKey: 'yume-conformance-gemini-dummy',
  gcloudAccessToken: 'ya29.yume-conformance-gcloud-dummy',
  ghToken: 'gho_yume_conformance_dummy',
} as const;

export type DummyCredentials = { readonly [Name in keyof typeof DUMMY_CREDENTIALS]: string };

/** Matches any run's dummy credential, its suffix included (for redaction). */
export const DUMMY_CREDENTIAL_PATTERN = new RegExp(
  `(?:${Object.values(DUMMY_CREDENTIALS)
    .map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})(?:-[0-9a-f]{12})?`,
  'g',
);

/** Fresh credentials for one run: D2's values with the same random suffix. */
export function runCredentials(suffix = randomBytes(6).toString('hex')): DummyCredentials {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(DUMMY_CREDENTIALS)) result[name] = `${value}-${suffix}`;
  return result as DummyCredentials;
}

/** Which credential values each mock accepts (defaults: D2). */
export interface AcceptedCredentials {
  openai: string[];
  anthropic: string[];
  gemini: string[];
  /** Bearer tokens Gemini accepts (as from `gcloud auth print-access-token`). */
  geminiBearer: string[];
}

/** What a mock accepts: exactly the given credentials (default: D2's values). */
export function defaultAcceptedCredentials(credentials: DummyCredentials = DUMMY_CREDENTIALS): AcceptedCredentials {
  return {
    openai: [credentials.openaiApiKey],
    anthropic: [credentials.anthropicApiKey],
    gemini: [credentials.geminiApiKey],
    geminiBearer: [credentials.gcloudAccessToken],
  };
}
