// Time for the session and its turns: milliseconds for durations (duration_ms, duration_api_ms) and the
// session's timestamps. process.hrtime is built in, whereas the first use of the global `performance` loads
// perf_hooks (~1 ms of every process's start-up).
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/**
 * `date.toISOString()`, built by hand: the first toISOString call of a process costs about 0.25 ms (the
 * session's timestamps are the only dates a turn formats). Years outside 0–9999 and invalid dates are left to
 * toISOString itself (its extended years, its RangeError).
 */
export function isoTimestamp(date: Date = new Date()): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(
    date.getUTCMinutes(),
  )}:${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}Z`;
}
