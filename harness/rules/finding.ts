// Findings built from the catalog: every check reports through runFinding() so severity and fix come from one place.
import { ruleById } from './catalog.js';
import type { Finding, Severity } from './types.js';

/**
 * A finding of a catalog rule, with the catalog's severity and fix (`extra.fix` replaces the catalog's when the
 * check knows what exactly differs). Throws on an unknown id (a typo in the harness).
 */
export function runFinding(
  ruleId: string,
  message: string,
  extra: { line?: number; excerpt?: string; severity?: Severity; fix?: string } = {},
): Finding {
  const definition = ruleById(ruleId);
  const finding: Finding = {
    rule: ruleId,
    severity: extra.severity ?? definition.severity,
    message,
    fix: extra.fix ?? definition.fix,
  };
  if (extra.line !== undefined) finding.line = extra.line;
  if (extra.excerpt !== undefined) finding.excerpt = extra.excerpt;
  return finding;
}
