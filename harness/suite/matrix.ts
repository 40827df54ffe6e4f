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

export function buildMatrix(options: MatrixOptions): RunSpec[] {
  const runs = new Map<string, RunSpec>();
  const add = (spec: RunSpec) => {
    if (!applies(spec.scenario, spec.provider)) return;
    const { dialect, ...rest } = spec;
    const asked = dialect === undefined ? undefined : askedDialect(spec.invocation, dialect);
    const run: RunSpec = asked === undefined ? rest : { ...rest, dialect: asked };
    runs.set(key(run), run);
  };
  const baseInvocation: Invocation = options.invocation ?? { kind: 'spec' };
  const defaultDialect: Dialect = options.capabilities.dialects[0] ?? 'flat';
  const byId = new Map(options.scenarios.map((scenario) => [scenario.id, scenario]));
  const selectedProviders = new Set(options.providers);

  // Every scenario once per provider with the defaults: the core of both matrices.
  for (const scenario of options.scenarios) {
    for (const provider of options.providers) {
      add({
        scenario,
        provider,
        invocation: baseInvocation,
        profile: defaultProfile(baseInvocation, options.profile),
        dialect: defaultDialect,
      });
    }
  }

  const invocations: Invocation[] = options.invocation
    ? [options.invocation]
    : [{ kind: 'spec' }, { kind: 'yume-app' }];
  const profilesFor = (invocation: Invocation): Profile[] =>
    options.profile ? [options.profile] : invocation.kind === 'yume-app' ? ['yume-app'] : ['spec', 'yume-app'];
  const dialects = options.capabilities.dialects;

  if (options.full) {
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
            for (const dialect of dialects) {
              for (const seed of seeds)
                add({ scenario, provider, invocation, profile, dialect, ...(seed === undefined ? {} : { seed }) });
            }
          }
        }
      }
    }
    return [...runs.values()];
  }

  // A fixed sample of the other combinations.
  const sampled = (ids: string[], providers: ProviderId[]) =>
    ids.flatMap((id) =>
      byId.has(id)
        ? providers
            .filter((provider) => selectedProviders.has(provider))
            .map((provider) => ({ scenario: byId.get(id)!, provider }))
        : [],
    );
  if (!options.invocation) {
    for (const { scenario, provider } of sampled(SAMPLE_SCENARIOS, YUME_APP_SAMPLE_PROVIDERS)) {
      add({
        scenario,
        provider,
        invocation: { kind: 'yume-app' },
        profile: defaultProfile({ kind: 'yume-app' }, options.profile),
        dialect: defaultDialect,
      });
    }
  }
  if (!options.profile && baseInvocation.kind !== 'yume-app') {
    for (const { scenario, provider } of sampled(SAMPLE_SCENARIOS.slice(1), ['openai-chat', 'gemini'])) {
      add({ scenario, provider, invocation: baseInvocation, profile: 'yume-app', dialect: defaultDialect });
    }
  }
  for (const dialect of dialects.slice(1)) {
    for (const { scenario, provider } of sampled(DIALECT_SAMPLE_SCENARIOS, DIALECT_SAMPLE_PROVIDERS)) {
      add({
        scenario,
        provider,
        invocation: baseInvocation,
        profile: defaultProfile(baseInvocation, options.profile),
        dialect,
      });
    }
  }
  // A few seeded re-chunkings.
  for (let variant = 0; variant < RECHUNK_VARIANTS.representative; variant += 1) {
    for (const { scenario, provider } of sampled(RECHUNK_SCENARIOS, RECHUNK_PROVIDERS)) {
      add({
        scenario,
        provider,
        invocation: baseInvocation,
        profile: defaultProfile(baseInvocation, options.profile),
        dialect: defaultDialect,
        seed: options.seed + variant,
      });
    }
  }
  return [...runs.values()];
}
