// Milliseconds for durations (duration_ms, duration_api_ms). process.hrtime is built in, whereas the first
// use of the global `performance` loads perf_hooks (~1 ms of every process's start-up).
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
