// The programmatic API of yume-conformance (package entry "."): run the suite against a shim, or validate
// a captured stdout, from JavaScript/TypeScript instead of the command line.

export { YumeError } from '../common/errors.js';
export { UsageError } from './errors.js';
export { type CanonicalEvent, toCanonicalEvents } from './protocol/canonical.js';
export { renderHtml } from './report/html.js';
export { emitReports, parseReporterSpec, reporterNames } from './report/reporters.js';
export type { Finding, Profile, Severity } from './rules/types.js';
export { ConfigFileError } from './runner/config/config-file.js';
export type { ProviderId } from './runner/config/providers.js';
export { PROVIDER_IDS } from './runner/config/providers.js';
export type { ProcessRecord, RequestRecord, RunResult, RunStatus, TimelineEntry } from './runner/results/run-types.js';
export type { ConformanceRunOutcome, ConformanceRunReport, RunOptions } from './suite/run-conformance.js';
export { bundledReferenceShim, runConformance, runConformanceWithResults } from './suite/run-conformance.js';
export type { ValidateOptions, ValidationResult } from './validate/validate-stream.js';
// validate(): judge one captured stdout against the rule catalog (the `validate` command's engine).
export { validateStream as validate, validateStream } from './validate/validate-stream.js';
