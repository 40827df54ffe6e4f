// The programmatic API of yume-conformance (package entry "."): run the suite against a shim, or validate
// a captured stdout, from JavaScript/TypeScript instead of the command line.
export { runConformance, runConformanceWithResults, bundledReferenceShim } from './suite/run-conformance.js';
export { UsageError } from './errors.js';
export { YumeError } from '../common/errors.js';
export type { RunOptions, ConformanceRunReport, ConformanceRunOutcome } from './suite/run-conformance.js';
export type { RunResult, RunStatus, ProcessRecord, RequestRecord, TimelineEntry } from './runner/results/run-types.js';
export { PROVIDER_IDS } from './runner/config/providers.js';
export type { ProviderId } from './runner/config/providers.js';
export { ConfigFileError } from './runner/config/config-file.js';
export { renderHtml } from './report/html.js';
export { emitReports, parseReporterSpec, reporterNames } from './report/reporters.js';

// validate(): judge one captured stdout against the rule catalog (the `validate` command's engine).
export { validateStream as validate, validateStream } from './validate/validate-stream.js';
export type { ValidateOptions, ValidationResult } from './validate/validate-stream.js';
export { toCanonicalEvents, type CanonicalEvent } from './protocol/canonical.js';
export type { Finding, Profile, Severity } from './rules/types.js';
