// isoTimestamp: the session's timestamps, formatted by hand, exactly as Date.prototype.toISOString does.
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../reference-shim/session/clock.js';

describe('isoTimestamp', () => {
  it.each([
    0,
    1,
    -1,
    951_782_400_000, // 2000-02-29
    1_795_680_000_123,
    253_402_300_799_999, // 9999-12-31T23:59:59.999Z
    -62_167_219_200_000, // 0000-01-01
  ])('formats %d as toISOString does', (ms) => {
    expect(isoTimestamp(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('leaves extended years and invalid dates to toISOString', () => {
    const far = new Date(Date.UTC(12_345, 0, 1));
    expect(isoTimestamp(far)).toBe(far.toISOString());
    const early = new Date(Date.UTC(-5, 0, 1));
    expect(isoTimestamp(early)).toBe(early.toISOString());
    expect(() => isoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('stamps the current time by default', () => {
    const before = Date.now();
    const stamped = Date.parse(isoTimestamp());
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(Date.now());
  });
});
