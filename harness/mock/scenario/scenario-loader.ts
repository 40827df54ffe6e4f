// Loads and validates transcripts/<id>/scenario.json. Every problem names the file, the line, the JSON path
// and a fix, because scenario authors (and shim authors reading a failed run) must not get a stack trace.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { YumeError } from '../../../common/errors.js';
import { jsonPointerLines, offsetToLineColumn } from '../../../common/json-locations.js';
// Compiled from schemas/scenario.schema.json by `npm run gen` (all errors, discriminator), so loading the
// scenarios does not compile the schema on every start.
import { scenarioValidator } from '../../../generated/validators.js';
import type { LoadedScenario, ModelResponse, Scenario } from './scenario-types.js';

export interface ScenarioProblem {
  file: string;
  /** JSON Pointer of the offending value ('' = whole document). */
  pointer: string;
  line?: number;
  message: string;
  fix: string;
}

/** Thrown when one or more scenarios cannot be loaded; `problems` lists each one. */
export class ScenarioLoadError extends YumeError {
  override name = 'ScenarioLoadError';
  readonly problems: ScenarioProblem[];
  constructor(problems: ScenarioProblem[]) {
    super('SCENARIO_LOAD', problems.map(formatProblem).join('\n'));
    this.problems = problems;
  }
}

export function formatProblem(problem: ScenarioProblem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  const pointer = problem.pointer === '' ? '(document)' : problem.pointer;
  return `${where} ${pointer}: ${problem.message} — fix: ${problem.fix}`;
}

/** Loads one scenario folder (containing scenario.json). Throws ScenarioLoadError on any problem. */
export function loadScenario(dir: string): LoadedScenario {
  const absolute = path.resolve(dir);
  const file = path.join(absolute, 'scenario.json');
  const problems: ScenarioProblem[] = [];
  const scenario = readScenarioFile(file, path.basename(absolute), problems);
  if (!scenario || problems.length > 0) throw new ScenarioLoadError(problems);
  const loaded: LoadedScenario = { ...scenario, dir: absolute };
  const workspace = path.join(absolute, 'workspace');
  if (isDirectory(workspace)) loaded.workspaceDir = workspace;
  const after = path.join(absolute, 'workspace-after');
  if (isDirectory(after)) loaded.workspaceAfterDir = after;
  return loaded;
}

/** Loads every folder under `root` that holds a scenario.json, sorted by id. Reports all problems at once. */
export function loadAllScenarios(root: string): LoadedScenario[] {
  const absolute = path.resolve(root);
  if (!isDirectory(absolute)) {
    throw new ScenarioLoadError([
      { file: absolute, pointer: '', message: 'scenario root is not a directory', fix: 'pass the transcripts/ folder' },
    ]);
  }
  const scenarios: LoadedScenario[] = [];
  const problems: ScenarioProblem[] = [];
  for (const entry of readdirSync(absolute).sort()) {
    const dir = path.join(absolute, entry);
    if (!isDirectory(dir) || !existsSync(path.join(dir, 'scenario.json'))) continue;
    try {
      scenarios.push(loadScenario(dir));
    } catch (error) {
      if (error instanceof ScenarioLoadError) problems.push(...error.problems);
      else throw error;
    }
  }
  if (problems.length > 0) throw new ScenarioLoadError(problems);
  return scenarios;
}

/** Validates an in-memory scenario (tests, generated scripts). `file` is only used in messages. */
export function validateScenario(value: unknown, file = '<scenario>', folderName?: string): Scenario {
  const problems: ScenarioProblem[] = [];
  const text = JSON.stringify(value, null, 2);
  checkScenario(value, { text, file, folderName }, problems);
  if (problems.length > 0) throw new ScenarioLoadError(problems);
  return value as Scenario;
}

function readScenarioFile(file: string, folderName: string, problems: ScenarioProblem[]): Scenario | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    problems.push({
      file,
      pointer: '',
      message: 'cannot read scenario.json',
      fix: 'create scenario.json in the scenario folder',
    });
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /position (\d+)/.exec(message);
    const line = offset ? offsetToLineColumn(text, Number(offset[1])).line : undefined;
    problems.push({
      file,
      pointer: '',
      line,
      message: `not valid JSON (${message})`,
      fix: 'fix the JSON syntax at that line',
    });
    return undefined;
  }
  checkScenario(value, { text, file, folderName }, problems);
  return value as Scenario;
}

/** Checks a parsed scenario against its schema, then its meaning; `source`: the file's text, path and folder. */
function checkScenario(
  value: unknown,
  source: { text: string; file: string; folderName: string | undefined },
  problems: ScenarioProblem[],
): void {
  const { text, file, folderName } = source;
  const lines = jsonPointerLines(text);
  if (!scenarioValidator(value)) {
    for (const error of scenarioValidator.errors ?? []) problems.push(schemaProblem(error, file, lines));
    return; // semantic checks assume the shape is right
  }
  const at = (pointer: string, message: string, fix: string): void => {
    problems.push({ file, pointer, line: lines.get(pointer), message, fix });
  };
  checkSemantics(value as Scenario, folderName, at);
}

function schemaProblem(error: ErrorObject, file: string, lines: Map<string, number>): ScenarioProblem {
  let pointer = error.instancePath;
  let line = lines.get(pointer);
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? 'is invalid';
  let fix = 'see schemas/scenario.schema.json';
  switch (error.keyword) {
    case 'required':
      message = `missing property "${String(params.missingProperty)}"`;
      fix = `add "${String(params.missingProperty)}"`;
      break;
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      pointer = `${pointer}/${extra}`;
      line = lines.get(`${pointer}#key`) ?? line;
      message = `unknown property "${extra}"`;
      fix = `remove "${extra}" or correct its spelling (schemas/scenario.schema.json lists the allowed names)`;
      break;
    }
    case 'enum':
      fix = `use one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'const':
      fix = `use ${JSON.stringify(params.allowedValue)}`;
      break;
    case 'type':
      fix = `make it a ${String(params.type)}`;
      break;
    case 'discriminator':
      message = `unknown fault kind ${JSON.stringify(params.tagValue)}`;
      fix = 'use one of "http", "context-overflow", "cut", "malformed", "mid-stream-error", "drip"';
      break;
    case 'not':
      if (/\/toolCalls\/\d+$/.test(pointer)) {
        message = 'has both "input" and "rawArguments"';
        fix = 'keep "input" for valid arguments, or "rawArguments" for deliberately invalid JSON';
      }
      break;
    case 'pattern':
      fix = `match the pattern ${String(params.pattern)}`;
      break;
    case 'minItems':
      fix = `give at least ${String(params.limit)} item(s)`;
      break;
    case 'minimum':
    case 'maximum':
      fix = `use a value ${error.keyword === 'minimum' ? '>=' : '<='} ${String(params.limit)}`;
      break;
    default:
      break;
  }
  return { file, pointer, line, message, fix };
}

type Report = (pointer: string, message: string, fix: string) => void;

/** Cross-field rules the schema cannot express. */
function checkSemantics(scenario: Scenario, folderName: string | undefined, at: Report): void {
  if (folderName !== undefined && scenario.id !== folderName) {
    at(
      '/id',
      `id "${scenario.id}" differs from the folder name "${folderName}"`,
      `set "id" to "${folderName}" or rename the folder`,
    );
  }
  const seenIds = new Set<string>();
  scenario.turns.forEach((turn, t) => {
    const turnPointer = `/turns/${t}`;
    if (turn.resume && t === 0)
      at(`${turnPointer}/resume`, 'the first turn cannot resume', 'remove "resume" from turn 1');
    if (turn.stdin && scenario.mode !== 'persistent') {
      at(
        `${turnPointer}/stdin`,
        '"stdin" lines only exist in persistent mode',
        'set "mode": "persistent" or remove "stdin"',
      );
    }
    const turnCallIds = new Set<string>();
    turn.responses.forEach((response, r) => {
      const pointer = `${turnPointer}/responses/${r}`;
      const kind = response.fault?.kind;
      if (
        (kind === 'http' || kind === 'context-overflow') &&
        (response.text || response.toolCalls || response.thinking)
      ) {
        at(
          pointer,
          `${kind === 'http' ? 'an HTTP' : 'a context-overflow'} fault answers before any streaming, so its text/toolCalls/thinking would never be sent`,
          'move them to the next response (the retry)',
        );
      }
      for (const [message, fix] of response.summary ? summaryProblems(response) : [])
        at(`${pointer}/summary`, message, fix);
      if (response.stall && response.fault && response.fault.kind !== 'drip') {
        at(`${pointer}/stall`, `"stall" cannot be combined with a ${response.fault.kind} fault`, 'keep one of them');
      }
      if (response.stall && !response.text?.length) {
        at(`${pointer}/stall`, '"stall": "after-first-text" needs at least one text chunk', 'add "text"');
      }
      (response.toolCalls ?? []).forEach((call, c) => {
        if (seenIds.has(call.id)) {
          at(
            `${pointer}/toolCalls/${c}/id`,
            `tool call id "${call.id}" is used twice in the scenario`,
            'give every tool call its own id',
          );
        }
        seenIds.add(call.id);
        turnCallIds.add(call.id);
      });
    });
    (turn.expect.toolResults ?? []).forEach((expected, e) => {
      if (!turnCallIds.has(expected.id)) {
        at(
          `${turnPointer}/expect/toolResults/${e}/id`,
          `no tool call with id "${expected.id}" in this turn`,
          `use one of ${[...turnCallIds].map((id) => `"${id}"`).join(', ') || '(this turn has no tool calls)'}`,
        );
      }
    });
    if (turn.interrupt === 'after-first-text' && !turn.responses.some((response) => response.stall)) {
      at(
        `${turnPointer}/interrupt`,
        'an interrupt after the first text needs a response that stalls',
        'add "stall": "after-first-text" to the response being interrupted',
      );
    }
  });
}

/** A compaction summary is the text of one model answer: no tool calls, no fault, no repeat of its own. */
function summaryProblems(response: ModelResponse): [string, string][] {
  const problems: [string, string][] = [];
  if (!response.text?.length) problems.push(['a summary needs its text', 'add "text": the summary the model writes']);
  if (response.toolCalls?.length || response.fault || response.repeat) {
    problems.push([
      'a summary cannot call tools, carry a fault or repeat (it answers up to two summary requests by itself)',
      'move them to a response of their own',
    ]);
  }
  return problems;
}

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}
