// The credentials check of each provider API, as the real ones make it.
import type { AcceptedCredentials } from './credentials.js';
import type { RecordedRequest } from './mock-types.js';
import { authErrorReply, geminiInvalidTokenReply, type HttpErrorReply } from './render/error-bodies.js';
import type { MockProviderId } from './scenario/scenario-types.js';

/** Auth as the real APIs check it; returns the error reply, or undefined when the credentials are accepted. */
export function checkAuth(
  provider: MockProviderId,
  entry: RecordedRequest,
  accepted: AcceptedCredentials,
): HttpErrorReply | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(entry.headers.authorization ?? '')?.[1]?.trim();
  switch (provider) {
    case 'openai-chat':
    case 'openai-responses':
      if (!bearer) return authErrorReply(provider, 'missing-key');
      return accepted.openai.includes(bearer) ? undefined : authErrorReply(provider, 'invalid-key');
    case 'anthropic': {
      // x-api-key is the documented header; @anthropic-ai/sdk 1.x sends the same API key as a Bearer token.
      const key = entry.headers['x-api-key'] ?? bearer;
      if (!key) return authErrorReply(provider, 'missing-key');
      if (!accepted.anthropic.includes(key)) return authErrorReply(provider, 'invalid-key');
      return entry.headers['anthropic-version'] ? undefined : authErrorReply(provider, 'missing-version');
    }
    case 'gemini': {
      const key = entry.headers['x-goog-api-key'] ?? new URLSearchParams(entry.query).get('key') ?? undefined;
      if (key) return accepted.gemini.includes(key) ? undefined : authErrorReply(provider, 'invalid-key');
      if (bearer) return accepted.geminiBearer.includes(bearer) ? undefined : geminiInvalidTokenReply();
      return authErrorReply(provider, 'missing-key');
    }
  }
}
