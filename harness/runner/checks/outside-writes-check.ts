// workspace.outside-writes (R11): the folder that holds the workspace belongs to the run. In the app it is the
// folder that holds the user's project, so whatever a shim leaves there beside --cwd, without a tool call the
// app could refuse, lands next to the user's project. After the run, every entry of that folder the runner did
// not make is a finding naming its path; the entry goes with the run's folder, after the report recorded it.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';

/** Shown per run: a shim that floods the folder still gets one readable finding. */
const SHOWN_ENTRIES = 10;

/**
 * The finding for entries of `runFolder` (the workspace's parent) other than `made`, the names the runner
 * created there (workspace, home, bin, state, tmp). A folder that cannot be read gives no finding: the run's
 * own cleanup reports nothing either, and the workspace checks still judge the workspace.
 */
export function outsideWritesCheck(runFolder: string, made: readonly string[]): Finding[] {
  let names: string[];
  try {
    names = readdirSync(runFolder).sort();
  } catch {
    return [];
  }
  const runners = new Set(made);
  const strangers = names.filter((name) => !runners.has(name)).map((name) => path.join(runFolder, name));
  if (strangers.length === 0) return [];
  const shown = strangers.slice(0, SHOWN_ENTRIES);
  const more = strangers.length > shown.length ? ` … and ${strangers.length - shown.length} more` : '';
  return [
    runFinding(
      'workspace.outside-writes',
      `the run left ${strangers.length === 1 ? 'an entry' : `${strangers.length} entries`} beside --cwd, in the folder that holds the workspace (in the app: the folder that holds the user's project): ${shown.join(', ')}${more}`,
    ),
  ];
}
