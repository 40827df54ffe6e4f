// Public surface of the mocked providers. Other areas import from here only.
export type {
  Scenario,
  Turn,
  TurnExpectation,
  ExpectedToolResult,
  ModelResponse,
  ScriptToolCall,
  ScriptUsage,
  Fault,
  HttpFaultStatus,
  MockProviderId,
  ScenarioProviderId,
  LoadedScenario,
} from './scenario-types.js';
export { MOCK_PROVIDER_IDS } from './scenario-types.js';
export {
  loadScenario,
  loadAllScenarios,
  validateScenario,
  ScenarioLoadError,
  formatProblem,
  type ScenarioProblem,
} from './scenario-loader.js';
export {
  startMockServer,
  type MockServer,
  type MockServerOptions,
  type RecordedRequest,
  type RequestOutcome,
} from './mock-server.js';
export { checkProviderRequests, type Finding, type CheckedRequest } from './request-checks.js';
export { requestView, type RequestView, type HistoryItem } from './request-views.js';
export {
  toolCallIdMap,
  providerToolCallId,
  responsesItemId,
  geminiThoughtSignature,
  type ToolCallIdEntry,
} from './tool-call-ids.js';
export { providerErrorReply, authErrorReply, type HttpErrorReply } from './error-bodies.js';
export { DUMMY_CREDENTIALS, defaultAcceptedCredentials, type AcceptedCredentials } from './credentials.js';
export { writeAuthHelpers, type AuthHelpers } from './auth-helpers.js';
export { rechunkSeeds, seededRandom, splitAtRandomOffsets } from './rechunk.js';
export { renderOpenAIChatStream } from './render-openai-chat.js';
export { renderOpenAIResponsesStream } from './render-openai-responses.js';
export { renderGeminiSse, renderGeminiJsonArray } from './render-gemini.js';
export { renderAnthropicStream } from './render-anthropic.js';
export { providerEnvironment, type ProviderEnvironment } from './provider-environment.js';
export { findPackageRoot, defaultTranscriptsDir } from './package-paths.js';
