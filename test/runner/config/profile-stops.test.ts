// A turn that scripts both stops plays the one its profile's stop is: the app's kill under yume-app, the spec's
// interrupt otherwise (compact-interrupted).
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../harness/mock/scenario/scenario-loader.js';
import { scenarioUnderProfile } from '../../../harness/runner/config/profile-stops.js';
import { transcripts } from '../helpers/run-fixture.js';

describe('the stop a profile plays', () => {
  const scenario = loadScenario(`${transcripts}/compact-interrupted`);

  it('kills under yume-app and interrupts under spec; the other turns are untouched', () => {
    const app = scenarioUnderProfile(scenario, 'yume-app');
    const spec = scenarioUnderProfile(scenario, 'spec');
    expect(scenario.turns[1]).toMatchObject({ interrupt: 'after-first-text', kill: 'after-first-text' });
    expect(app.turns[1]).toMatchObject({ kill: 'after-first-text' });
    expect(app.turns[1]).not.toHaveProperty('interrupt');
    expect(spec.turns[1]).toMatchObject({ interrupt: 'after-first-text' });
    expect(spec.turns[1]).not.toHaveProperty('kill');
    expect(app.turns[0]).toBe(scenario.turns[0]);
  });

  it('leaves a scenario with one stop per turn as it is (the same object)', () => {
    const killAndResume = loadScenario(`${transcripts}/kill-and-resume`);
    expect(scenarioUnderProfile(killAndResume, 'spec')).toBe(killAndResume);
    expect(scenarioUnderProfile(killAndResume, 'yume-app')).toBe(killAndResume);
  });
});
