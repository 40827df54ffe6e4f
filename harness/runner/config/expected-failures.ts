// Known failing checks (--expected-failures, schemas/expected-failures.schema.json). A listed failure
// does not fail the suite; a listed check that passes now fails it as stale.
import expectedFailuresSchema from '../../../schemas/expected-failures.schema.json' with { type: 'json' };
import { ConfigFileError, loadJsonConfig } from './config-file.js';

export interface ExpectedFailure {
  scenario: string;
  provider?: string;
  rule?: string;
  os?: string[];
  /** Only under this rule profile / invocation (spec, yume-app, a template file or preset name). */
  profile?: string;
  invocation?: string;
  reason: string;
  evidence?: string;
  /** Comes and goes: a run in which the check passes is not stale. */
  intermittent?: boolean;
}

export function loadExpectedFailures(file: string): ExpectedFailure[] {
  const { failures } = loadJsonConfig<{ failures: ExpectedFailure[] }>(
    file,
    expectedFailuresSchema,
    '--expected-failures',
    'schemas/expected-failures.schema.json',
  );
  // A scenario listed as a whole and per rule for an overlapping provider/OS would make "stale" ambiguous.
  failures.forEach((whole, index) => {
    if (whole.rule !== undefined) return;
    const clash = failures.find(
      (other) =>
        other.rule !== undefined &&
        other.scenario === whole.scenario &&
        (whole.provider === undefined || other.provider === undefined || other.provider === whole.provider) &&
        (whole.os === undefined || other.os === undefined || other.os.some((os) => whole.os!.includes(os))),
    );
    if (clash) {
      throw new ConfigFileError(
        `--expected-failures ${file}: failures[${index}] lists scenario "${whole.scenario}" as a whole, and another entry lists its rule ` +
          `"${clash.rule}" — fix: keep either the whole-run entry or the per-rule entries`,
      );
    }
  });
  return failures;
}

/** What an entry is matched against: a run's point of the matrix, on an OS. */
export interface MatchedRun {
  scenario: string;
  provider: string;
  os: string;
  profile?: string;
  invocation?: string;
}

/** A run's fields an entry is matched against, on `os`. */
export const matchedRun = (run: Omit<MatchedRun, 'os'>, os: string): MatchedRun => ({
  scenario: run.scenario,
  provider: run.provider,
  os,
  profile: run.profile,
  invocation: run.invocation,
});

/** Whether an entry applies to a run. */
export function entryMatches(entry: ExpectedFailure, run: MatchedRun): boolean {
  return (
    entry.scenario === run.scenario &&
    (entry.provider === undefined || entry.provider === run.provider) &&
    (entry.profile === undefined || entry.profile === run.profile) &&
    (entry.invocation === undefined || entry.invocation === run.invocation) &&
    (entry.os === undefined || entry.os.includes(run.os))
  );
}
