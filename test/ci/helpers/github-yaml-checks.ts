// Structural checks for GitHub workflow and composite-action files: the keys GitHub requires before it will
// run them, plus references that GitHub only reports at run time (an unknown input, matrix axis or step id).
// Each function returns a list of problems; an empty list means the file passes.

type Mapping = Record<string, unknown>;

const isMapping = (value: unknown): value is Mapping =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PINNED_USES = /^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40}$/;

export interface WorkflowCheckOptions {
  /** `uses:` prefixes that may use a tag instead of a commit SHA (e.g. this project's own action). */
  unpinnedAllowed?: string[];
}

/** Every `${{ ... }}` expression in a value, as text. */
function expressionsIn(value: unknown): string[] {
  const text = JSON.stringify(value) ?? '';
  return [...text.matchAll(/\$\{\{(.*?)\}\}/g)].map((match) => match[1]!);
}

/** Names referenced as `<prefix>.NAME` inside expressions and `if:` conditions (which may omit `${{ }}`). */
function referencedNames(value: unknown, prefix: string, extraConditions: string[] = []): Set<string> {
  const names = new Set<string>();
  const pattern = new RegExp(`\\b${prefix.replace('.', '\\.')}\\.([A-Za-z_][\\w-]*)`, 'g');
  for (const expression of [...expressionsIn(value), ...extraConditions]) {
    for (const match of expression.matchAll(pattern)) names.add(match[1]!);
  }
  return names;
}

function conditionsOf(steps: unknown[]): string[] {
  return steps.filter(isMapping).flatMap((step) => (typeof step.if === 'string' ? [step.if] : []));
}

function checkSteps(
  steps: unknown,
  where: string,
  options: { requireShell: boolean; unpinnedAllowed: string[] },
): string[] {
  if (!Array.isArray(steps) || steps.length === 0) return [`${where}: "steps" must be a non-empty list`];
  const problems: string[] = [];
  const ids = new Set<string>();
  steps.forEach((step, index) => {
    const at = `${where}.steps[${index}]`;
    if (!isMapping(step)) {
      problems.push(`${at}: a step must be a mapping`);
      return;
    }
    const hasUses = 'uses' in step;
    const hasRun = 'run' in step;
    if (hasUses === hasRun) problems.push(`${at}: a step needs exactly one of "uses" or "run"`);
    if (hasRun && (typeof step.run !== 'string' || step.run.trim() === ''))
      problems.push(`${at}: "run" must be a non-empty string`);
    if (hasRun && options.requireShell && typeof step.shell !== 'string') {
      problems.push(`${at}: a "run" step in a composite action needs "shell"`);
    }
    if (hasUses) {
      const uses = step.uses;
      if (typeof uses !== 'string' || uses.trim() === '') {
        problems.push(`${at}: "uses" must be a non-empty string`);
      } else if (!uses.startsWith('./') && !uses.startsWith('docker://')) {
        const allowed = options.unpinnedAllowed.some((prefix) => uses.startsWith(prefix));
        if (!allowed && !PINNED_USES.test(uses)) problems.push(`${at}: "${uses}" must be pinned to a full commit SHA`);
      }
    }
    if (typeof step.id === 'string') {
      if (ids.has(step.id)) problems.push(`${at}: step id "${step.id}" is used twice`);
      ids.add(step.id);
    }
  });
  const conditions = conditionsOf(steps);
  for (const id of referencedNames(steps, 'steps', conditions)) {
    if (!ids.has(id)) problems.push(`${where}: refers to steps.${id}, but no step has id "${id}"`);
  }
  return problems;
}

/** Checks a workflow file (`.github/workflows/*.yml`). */
export function checkWorkflow(doc: unknown, options: WorkflowCheckOptions = {}): string[] {
  const unpinnedAllowed = options.unpinnedAllowed ?? [];
  if (!isMapping(doc)) return ['the workflow must be a mapping'];
  const problems: string[] = [];
  if (!('on' in doc)) problems.push('the workflow needs "on" (its triggers)');
  if (!isMapping(doc.jobs) || Object.keys(doc.jobs).length === 0) {
    problems.push('the workflow needs "jobs" with at least one job');
    return problems;
  }
  const jobIds = new Set(Object.keys(doc.jobs));
  for (const [id, job] of Object.entries(doc.jobs)) {
    const where = `jobs.${id}`;
    if (!isMapping(job)) {
      problems.push(`${where}: a job must be a mapping`);
      continue;
    }
    const needs = job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs];
    for (const need of needs) {
      if (typeof need !== 'string' || !jobIds.has(need))
        problems.push(`${where}: needs unknown job ${JSON.stringify(need)}`);
    }
    if (typeof job.uses === 'string') continue; // a reusable-workflow call has no runs-on or steps
    if (job['runs-on'] === undefined) problems.push(`${where}: a job needs "runs-on"`);
    problems.push(...checkSteps(job.steps, where, { requireShell: false, unpinnedAllowed }));

    const strategy = job.strategy;
    const matrix = isMapping(strategy) ? strategy.matrix : undefined;
    if (strategy !== undefined && !isMapping(matrix)) problems.push(`${where}: "strategy" needs a "matrix" mapping`);
    const axes = new Set<string>();
    if (isMapping(matrix)) {
      for (const [axis, values] of Object.entries(matrix)) {
        if (axis === 'include' || axis === 'exclude') continue;
        if (!Array.isArray(values) || values.length === 0)
          problems.push(`${where}: matrix axis "${axis}" must be a non-empty list`);
        axes.add(axis);
      }
      if (Array.isArray(matrix.include)) {
        for (const entry of matrix.include) if (isMapping(entry)) for (const key of Object.keys(entry)) axes.add(key);
      }
      if (axes.size === 0) problems.push(`${where}: the matrix has no axis`);
    }
    const stepConditions = Array.isArray(job.steps) ? conditionsOf(job.steps) : [];
    const jobConditions = typeof job.if === 'string' ? [job.if] : [];
    for (const axis of referencedNames(job, 'matrix', [...stepConditions, ...jobConditions])) {
      if (!axes.has(axis)) problems.push(`${where}: refers to matrix.${axis}, but the job's matrix has no such axis`);
    }
  }
  return problems;
}

/** Checks a composite action (`action.yml` with `runs.using: composite`). */
export function checkCompositeAction(doc: unknown): string[] {
  if (!isMapping(doc)) return ['the action must be a mapping'];
  const problems: string[] = [];
  for (const key of ['name', 'description']) {
    if (typeof doc[key] !== 'string' || (doc[key] as string).trim() === '') problems.push(`the action needs "${key}"`);
  }
  const inputs = doc.inputs === undefined ? {} : doc.inputs;
  if (!isMapping(inputs)) problems.push('"inputs" must be a mapping');
  const inputNames = new Set(isMapping(inputs) ? Object.keys(inputs) : []);
  if (isMapping(inputs)) {
    for (const [name, input] of Object.entries(inputs)) {
      if (!isMapping(input) || typeof input.description !== 'string')
        problems.push(`inputs.${name}: needs "description"`);
    }
  }
  const runs = doc.runs;
  if (!isMapping(runs)) {
    problems.push('the action needs "runs"');
    return problems;
  }
  if (runs.using !== 'composite') problems.push(`runs.using must be "composite" (found ${JSON.stringify(runs.using)})`);
  problems.push(...checkSteps(runs.steps, 'runs', { requireShell: true, unpinnedAllowed: [] }));
  const conditions = Array.isArray(runs.steps) ? conditionsOf(runs.steps) : [];
  for (const name of referencedNames([runs, doc.outputs], 'inputs', conditions)) {
    if (!inputNames.has(name)) problems.push(`refers to inputs.${name}, but the action has no such input`);
  }
  const stepIds = new Set(
    (Array.isArray(runs.steps) ? runs.steps : []).flatMap((step) =>
      isMapping(step) && typeof step.id === 'string' ? [step.id] : [],
    ),
  );
  for (const id of referencedNames(doc.outputs, 'steps')) {
    if (!stepIds.has(id)) problems.push(`outputs refer to steps.${id}, but no step has id "${id}"`);
  }
  if (doc.outputs !== undefined) {
    if (!isMapping(doc.outputs)) problems.push('"outputs" must be a mapping');
    else {
      for (const [name, output] of Object.entries(doc.outputs)) {
        if (!isMapping(output) || typeof output.value !== 'string')
          problems.push(`outputs.${name}: a composite action output needs "value"`);
      }
    }
  }
  return problems;
}

/** Script files a composite action runs from its own folder (`$GITHUB_ACTION_PATH/<file>`). */
export function actionScripts(doc: unknown): string[] {
  const text = JSON.stringify(doc) ?? '';
  return [...new Set([...text.matchAll(/\$GITHUB_ACTION_PATH\/([\w./-]+\.m?js)/g)].map((match) => match[1]!))];
}
