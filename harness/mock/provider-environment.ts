// The environment a shim gets to talk to the mocks (R7, D2): base URLs in each SDK's form and dummy keys.
import { DUMMY_CREDENTIALS } from './credentials.js';

export type ProviderEnvironment = Record<string, string>;

/** `unset` removes variables (the gcloud-auth scenario drops GEMINI_API_KEY and GOOGLE_API_KEY). */
export function providerEnvironment(
  baseUrls: { openai: string; anthropic: string; gemini: string },
  unset: readonly string[] = [],
): ProviderEnvironment {
  const env: ProviderEnvironment = {
    OPENAI_BASE_URL: baseUrls.openai,
    ANTHROPIC_BASE_URL: baseUrls.anthropic,
    GOOGLE_GEMINI_BASE_URL: baseUrls.gemini,
    OPENAI_API_KEY: DUMMY_CREDENTIALS.openaiApiKey,
    ANTHROPIC_API_KEY: DUMMY_CREDENTIALS.anthropicApiKey,
    GEMINI_API_KEY: DUMMY_CREDENTIALS.geminiApiKey,
    GOOGLE_API_KEY: DUMMY_CREDENTIALS.geminiApiKey,
  };
  for (const name of unset) delete env[name];
  return env;
}
