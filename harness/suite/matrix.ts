// Which runs a suite makes (R12). The representative matrix (default, `npm test`): every scenario once per
// provider id with the default invocation, profile and dialect, plus a fixed sample of the other
// combinations and a few seeded re-chunkings. The full matrix (`--full`, `npm run conformance:full`):
// every invocation × profile × dialect × re-chunk seed. Dimensions the user pinned stay pinned. Under the
// yume-app invocation the runner asks for no dialect, as the app asks for none (R1a): one run, no dialect.
import type { LoadedScenario } from '../mock/scenario/scenario-types.js';
import type { Profile } from '../rules/types.js';
import type { Capabilities, Dialect } from '../runner/config/capabilities.js';
import type { Invocation } from '../runner/config/invocation.js';
import { type ProviderId, providerEntry } from '../runner/config/providers.js';
import type { RunSpec } from '../runner/results/run-types.js';

export interface MatrixOptions {
  scenarios: LoadedScenario[];
  providers: ProviderId[];
  /** --invocation, when given. */
  invocation?: Invocation;
  /** --profile, when given. */
  profile?: Profile;
  capabilities: Capabilities;
  full: boolean;
  /** Base seed of the re-chunked variants (--seed). */
  seed: number;
}

/** Scenarios sampled under the other invocation, profile and dialect, and re-chunked (representative matrix). */
const SAMPLE_SCENARIOS = ['plain-text', 'single-tool', 'multi-tool'];
/**
 * Under the app's invocation a plain run also plays `compact`: a compaction's 0/0 result is the app's only counter
 * reset, a MUST of the yume-app profile (docs/protocol.md#r21-compaction), so the default suite judges it.
 */
const YUME_APP_SAMPLE_SCENARIOS = [...SAMPLE_SCENARIOS, 'compact'];
const DIALECT_SAMPLE_SCENARIOS = ['single-tool', 'multi-tool', 'parallel-tools', 'interrupt'];
const DIALECT_SAMPLE_PROVIDERS: ProviderId[] = ['openai-chat', 'anthropic'];
const YUME_APP_SAMPLE_PROVIDERS: ProviderId[] = ['gemini', 'openai-responses', 'gemini-cli', 'codex-cli'];
const RECHUNK_SCENARIOS = ['single-tool', 'multi-tool'];
const RECHUNK_PROVIDERS: ProviderId[] = ['openai-chat', 'openai-responses', 'gemini', 'anthropic'];
/** How many seeded variants: the representative matrix runs two, the full one three (plus the unsplit run). */
const RECHUNK_VARIANTS = { representative: 2, full: 3 };

function applies(scenario: LoadedScenario, provider: ProviderId): boolean {
  return !scenario.providers || scenario.providers.includes(provider);
}

/** The profile an invocation implies: yume-app implies yume-app unless --profile says otherwise. */
export function defaultProfile(invocation: Invocation, pinned: Profile | undefined): Profile {
  return pinned ?? (invocation.kind === 'yume-app' ? 'yume-app' : 'spec');
}

/** The dialect a run under `invocation` asks for: none under yume-app (the app sets no dialect variable). */
function askedDialect(invocation: Invocation, dialect: Dialect): Dialect | undefined {
  return invocation.kind === 'yume-app' ? undefined : dialect;
}

function key(spec: RunSpec): string {
  return [
    spec.scenario.id,
    spec.provider,
    spec.invocation.kind === 'template' ? spec.invocation.file : spec.invocation.kind,
    spec.profile,
    spec.dialect ?? '-',
    spec.seed ?? '-',
  ].join('|');
}

/** The runs of a matrix, one per key, in the order first added; a run its scenario does not apply to is left out. */
class RunSet {
  private readonly runs = new Map<string, RunSpec>();

  add(spec: RunSpec): void {
    if (!applies(spec.scenario, spec.provider)) return;
    const { dialect, ...rest } = spec;
    const asked = dialect === undefined ? undefined : askedDialect(spec.invocation, dialect);
    const run: RunSpec = asked === undefined ? rest : { ...rest, dialect: asked };
    this.runs.set(key(run), run);
  }

  list(): RunSpec[] {
    return [...this.runs.values()];
  }
}

const baseInvocationOf = (options: MatrixOptions): Invocation => options.invocation ?? { kind: 'spec' };
const defaultDialectOf = (options: MatrixOptions): Dialect => options.capabilities.dialects[0] ?? 'flat';

export function buildMatrix(options: MatrixOptions): RunSpec[] {
  const runs = new RunSet();
  addCoreRuns(runs, options);
  if (options.full) addFullRuns(runs, options);
  else addSampledRuns(runs, options);
  return runs.list();
}

/** Every scenario once per provider with the defaults: the core of both matrices. */
function addCoreRuns(runs: RunSet, options: MatrixOptions): void {
  const invocation = baseInvocationOf(options);
  for (const scenario of options.scenarios) {
    for (const provider of options.providers) {
      runs.add({
        scenario,
        provider,
        invocation,
        profile: defaultProfile(invocation, options.profile),
        dialect: defaultDialectOf(options),
      });
    }
  }
}

/** The full matrix: every invocation × profile × dialect × re-chunk seed the user did not pin. */
function addFullRuns(runs: RunSet, options: MatrixOptions): void {
  const invocations: Invocation[] = options.invocation
    ? [options.invocation]
    : [{ kind: 'spec' }, { kind: 'yume-app' }];
  const profilesFor = (invocation: Invocation): Profile[] =>
    options.profile ? [options.profile] : invocation.kind === 'yume-app' ? ['yume-app'] : ['spec', 'yume-app'];
  const seeds: (number | undefined)[] = [
    undefined,
    ...Array.from({ length: RECHUNK_VARIANTS.full }, (_, index) => options.seed + index),
  ];
  for (const scenario of options.scenarios) {
    for (const provider of options.providers) {
      for (const invocation of invocations) {
        // An id the app has no provider for (— in R7) is only listed when the user pinned yume-app.
        if (!options.invocation && invocation.kind === 'yume-app' && !providerEntry(provider)?.yumeApp) continue;
        for (const profile of profilesFor(invocation)) {
          for (const dialect of options.capabilities.dialects) {
            for (const seed of seeds)
              runs.add({ scenario, provider, invocation, profile, dialect, ...(seed === undefined ? {} : { seed }) });
          }
        }
      }
    }
  }
}

/** The representative matrix's fixed sample of the other combinations, and a few seeded re-chunkings. */
function addSampledRuns(runs: RunSet, options: MatrixOptions): void {
  const baseInvocation = baseInvocationOf(options);
  const defaultDialect = defaultDialectOf(options);
  const byId = new Map(options.scenarios.map((scenario) => [scenario.id, scenario]));
  const selectedProviders = new Set(options.providers);
  const sampled = (ids: string[], providers: ProviderId[]) =>
    ids.flatMap((id) =>
      byId.has(id)
        ? providers
            .filter((provider) => selectedProviders.has(provider))
            .map((provider) => ({ scenario: byId.get(id)!, provider }))
        : [],
    );
  if (!options.invocation) {
    const invocation: Invocation = { kind: 'yume-app' };
    const profile = defaultProfile(invocation, options.profile);
    for (const { scenario, provider } of sampled(YUME_APP_SAMPLE_SCENARIOS, YUME_APP_SAMPLE_PROVIDERS))
      runs.add({ scenario, provider, invocation: { kind: 'yume-app' }, profile, dialect: defaultDialect });
  }
  if (!options.profile && baseInvocation.kind !== 'yume-app') {
    for (const { scenario, provider } of sampled(SAMPLE_SCENARIOS.slice(1), ['openai-chat', 'gemini']))
      runs.add({ scenario, provider, invocation: baseInvocation, profile: 'yume-app', dialect: defaultDialect });
  }
  const profile = defaultProfile(baseInvocation, options.profile);
  for (const dialect of options.capabilities.dialects.slice(1)) {
    for (const { scenario, provider } of sampled(DIALECT_SAMPLE_SCENARIOS, DIALECT_SAMPLE_PROVIDERS))
      runs.add({ scenario, provider, invocation: baseInvocation, profile, dialect });
  }
  for (let variant = 0; variant < RECHUNK_VARIANTS.representative; variant += 1) {
    for (const { scenario, provider } of sampled(RECHUNK_SCENARIOS, RECHUNK_PROVIDERS)) {
      const seed = options.seed + variant;
      runs.add({ scenario, provider, invocation: baseInvocation, profile, dialect: defaultDialect, seed });
    }
  }
}
