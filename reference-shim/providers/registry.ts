// Maps --provider to a provider instance (R7). Base URLs: --api-base wins, then the environment variable each
// official SDK reads, then the public endpoint.
import type { SecretRedactor } from '../output/redact.js';
import { withoutTrailingSlashes } from '../text/plain-match.js';
import { AnthropicProvider } from './anthropic.js';
import { GeminiProvider } from './gemini.js';
import { GeminiAuth } from './gemini-auth.js';
import { OpenAIChatProvider } from './openai-chat.js';
import { OpenAIResponsesProvider } from './openai-responses.js';
import { type Provider, ProviderError } from './provider.js';

export const MODEL_PROVIDERS = ['openai', 'codex', 'gemini', 'anthropic'] as const;
/** Providers that run an official CLI (providers/cli/, Type B). */
export const CLI_PROVIDERS = ['gemini-cli', 'codex-cli', 'claude-cli', 'copilot-cli'] as const;
/**
 * `copilot`, the seeds' name for the GitHub Copilot CLI (once "not supported": it had no machine interface), is
 * the copilot-cli translator under its older name.
 */
export const KNOWN_PROVIDERS: readonly string[] = [...MODEL_PROVIDERS, ...CLI_PROVIDERS, 'copilot'];

export const DEFAULT_MODELS: Record<string, string> = {
  openai: 'gpt-4.1-mini',
  codex: 'gpt-5.2-codex',
  gemini: 'gemini-2.5-flash',
  anthropic: 'claude-sonnet-4-5',
  'gemini-cli': 'gemini-2.5-flash',
  'codex-cli': 'gpt-5.2-codex',
  'claude-cli': 'claude-sonnet-4-5',
  'copilot-cli': 'claude-sonnet-4-5',
  copilot: 'claude-sonnet-4-5',
};

export interface ProviderSettings {
  provider: string;
  model: string;
  apiBase?: string;
  env: NodeJS.ProcessEnv;
  redactor: SecretRedactor;
  log?: (message: string) => void;
}

function base(flag: string | undefined, env: string | undefined, fallback: string): string {
  return withoutTrailingSlashes(flag || env || fallback);
}

/** The model name decides the OpenAI API: the app's codex models only exist on the Responses API. */
export function usesResponsesApi(provider: string, model: string): boolean {
  return provider === 'codex' || (provider === 'openai' && model.toLowerCase().includes('codex'));
}

export async function createProvider(settings: ProviderSettings): Promise<Provider> {
  const { provider, model, env } = settings;
  switch (provider) {
    case 'openai':
    case 'codex': {
      const config = {
        baseUrl: base(settings.apiBase, env.OPENAI_BASE_URL, 'https://api.openai.com/v1'),
        apiKey: env.OPENAI_API_KEY || undefined,
      };
      return usesResponsesApi(provider, model)
        ? new OpenAIResponsesProvider(provider, config)
        : new OpenAIChatProvider(provider, config);
    }
    case 'gemini':
      return new GeminiProvider(provider, {
        baseUrl: base(settings.apiBase, env.GOOGLE_GEMINI_BASE_URL, 'https://generativelanguage.googleapis.com'),
        credentials: new GeminiAuth(env, settings.redactor),
      });
    case 'anthropic':
      return new AnthropicProvider(provider, {
        baseUrl: base(settings.apiBase, env.ANTHROPIC_BASE_URL, 'https://api.anthropic.com'),
        apiKey: env.ANTHROPIC_API_KEY || undefined,
      });
    case 'gemini-cli':
    case 'codex-cli':
    case 'claude-cli':
    case 'copilot-cli':
    case 'copilot': {
      // Loaded only when asked for: the translators are not needed by the REST providers (start-up time).
      const { createCliProvider } = await import('./cli/index.js');
      return createCliProvider(provider === 'copilot' ? 'copilot-cli' : provider, { env, log: settings.log });
    }
    default:
      throw new ProviderError('config', `Unknown provider ${provider}; expected one of ${KNOWN_PROVIDERS.join(', ')}.`);
  }
}
