// Decision D2: the dummy credentials the runner sets and the mocks accept.
export const DUMMY_CREDENTIALS = {
  openaiApiKey: 'sk-yume-conformance-openai-dummy',
  anthropicApiKey: 'sk-ant-yume-conformance-dummy',
  geminiApiKey: 'yume-conformance-gemini-dummy',
  gcloudAccessToken: 'ya29.yume-conformance-gcloud-dummy',
  ghToken: 'gho_yume_conformance_dummy',
} as const;

/** Which credential values each mock accepts (defaults: D2). */
export interface AcceptedCredentials {
  openai: string[];
  anthropic: string[];
  gemini: string[];
  /** Bearer tokens Gemini accepts (as from `gcloud auth print-access-token`). */
  geminiBearer: string[];
}

export function defaultAcceptedCredentials(): AcceptedCredentials {
  return {
    openai: [DUMMY_CREDENTIALS.openaiApiKey],
    anthropic: [DUMMY_CREDENTIALS.anthropicApiKey],
    gemini: [DUMMY_CREDENTIALS.geminiApiKey],
    geminiBearer: [DUMMY_CREDENTIALS.gcloudAccessToken],
  };
}
