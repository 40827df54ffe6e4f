// Every fixture proof of helpers/rule-proofs.ts, run: the broken shim is reported under its rule, and the
// conforming shim on the same scenario is not (each conforming run is shared by the proofs that name it).
// Proofs with `runIn` are run by that file, which checks their timing as well.
import { describe, expect, it } from 'vitest';
import { ruleById } from '../../harness/rules/catalog.js';
import { describeFindings, fixtureShim, runFixture } from '../runner/helpers/run-fixture.js';
import { type FixtureCase, RULE_PROOFS } from './helpers/rule-proofs.js';

const posix = process.platform !== 'win32';
const fixtureProofs = RULE_PROOFS.filter(
  (proof): proof is Extract<(typeof RULE_PROOFS)[number], { failing: FixtureCase }> => 'failing' in proof,
);
const key = (fixture: FixtureCase) => `${fixture.shim} on ${fixture.scenario}`;
const conforming = new Map<string, { fixture: FixtureCase; rules: Set<string> }>();
for (const proof of fixtureProofs) {
  const entry = conforming.get(key(proof.conforming)) ?? { fixture: proof.conforming, rules: new Set<string>() };
  entry.rules.add(proof.rule);
  conforming.set(key(proof.conforming), entry);
}

describe.runIf(posix).concurrent('each run rule fires on its broken fixture', () => {
  it.each(
    fixtureProofs.filter((proof) => !proof.runIn).map((proof) => [`${proof.rule}: ${key(proof.failing)}`, proof]),
  )('%s', async (_name, proof) => {
    const result = await runFixture(fixtureShim(proof.failing.shim), proof.failing.scenario, proof.failing.options);
    const hits = result.findings.filter((finding) => finding.rule === proof.rule);
    expect(hits.length, describeFindings(result)).toBeGreaterThan(0);
    expect(hits[0]!.severity).toBe(ruleById(proof.rule).severity);
    if (ruleById(proof.rule).severity === 'MUST') expect(result.status).toBe('failed');
  });
});

describe.runIf(posix).concurrent('and stays silent on its conforming counterpart', () => {
  it.each([...conforming.values()].map((entry) => [`${key(entry.fixture)}: ${[...entry.rules].join(', ')}`, entry]))(
    '%s',
    async (_name, entry) => {
      const result = await runFixture(fixtureShim(entry.fixture.shim), entry.fixture.scenario, entry.fixture.options);
      const hits = result.findings.filter((finding) => entry.rules.has(finding.rule));
      expect(hits, describeFindings(result)).toEqual([]);
      expect(
        result.findings.filter((finding) => finding.severity === 'MUST'),
        describeFindings(result),
      ).toEqual([]);
    },
  );
});
