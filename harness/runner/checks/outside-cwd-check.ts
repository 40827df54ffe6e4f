// workspace.outside-cwd-refused (R11): a file tool call whose path resolves outside --cwd (through `..` or an
// absolute path) is answered with an error tool_result, and nothing is written there. The scenario scripts such
// calls; this check finds the shim's tool_use for each by name and path, and looks where the path leads.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LoadedScenario } from '../../mock/scenario/scenario-types.js';
import type { CanonicalEvent } from '../../protocol/canonical.js';
import { runFinding } from '../../rules/finding.js';
import type { Finding } from '../../rules/types.js';

const PATH_FIELDS = ['file_path', 'notebook_path', 'path'] as const;

function targetOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const fields = input as Record<string, unknown>;
  for (const field of PATH_FIELDS) if (typeof fields[field] === 'string') return fields[field] as string;
  return undefined;
}

function isOutside(workspace: string, target: string): boolean {
  const relative = path.relative(workspace, path.resolve(workspace, target));
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}

export function outsideCwdChecks(scenario: LoadedScenario, workspace: string, events: CanonicalEvent[]): Finding[] {
  const findings: Finding[] = [];
  const calls = scenario.turns.flatMap((turn) => turn.responses.flatMap((response) => response.toolCalls ?? []));
  for (const call of calls) {
    const target = targetOf(call.input);
    if (target === undefined || !isOutside(workspace, target)) continue;
    const use = events.find(
      (event): event is Extract<CanonicalEvent, { kind: 'tool_use' }> =>
        event.kind === 'tool_use' && event.name === call.name && targetOf(event.input) === target,
    );
    const answer = use
      ? events.find(
          (event): event is Extract<CanonicalEvent, { kind: 'tool_result' }> =>
            event.kind === 'tool_result' && event.toolUseId === use.id,
        )
      : undefined;
    if (use && answer && !answer.isError)
      findings.push(
        runFinding(
          'workspace.outside-cwd-refused',
          `the ${call.name} of ${JSON.stringify(target)} (line ${use.line}) resolves outside --cwd but was answered as a success (line ${answer.line})`,
          { line: answer.line },
        ),
      );
    if (call.name !== 'Read' && existsSync(path.resolve(workspace, target)))
      findings.push(
        runFinding(
          'workspace.outside-cwd-refused',
          `${path.resolve(workspace, target)} exists after the run: the ${call.name} of ${JSON.stringify(target)}, outside --cwd, was carried out`,
        ),
      );
  }
  return findings;
}
