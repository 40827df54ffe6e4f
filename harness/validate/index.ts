// Public surface of the validator (re-exported by harness/index.ts).
export { validateStream, type ValidateOptions, type ValidationResult } from './validate-stream.js';
export {
  toCanonicalEvents,
  messageToCanonicalEvents,
  type CanonicalEvent,
  type CanonicalUsage,
} from '../protocol/canonical.js';
export { allRules, ruleById, hasRule, rulesForProfile, defineRules, PROFILES } from '../rules/catalog.js';
export type { Finding, Profile, RuleDefinition, RuleLevel, Severity } from '../rules/types.js';
export type { StreamDialect } from '../protocol/dialect.js';
