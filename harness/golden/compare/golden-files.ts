// Golden transcript files (D3): one per spawned process, golden.jsonl, golden.2.jsonl, ... The reference
// shim's flat stdout with what varies between runs replaced by stable placeholders, so regenerated goldens
// diff only where the protocol changed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_COMPARED_DEPTH, type NormaliseContext, normaliseText, TOO_DEEP_MARKER } from '../normalise.js';

/** File name of the golden of the process at `index` (0-based). */
export function goldenFileName(index: number): string {
  return index === 0 ? 'golden.jsonl' : `golden.${index + 1}.jsonl`;
}

export function goldenPath(scenarioDir: string, index: number): string {
  return path.join(scenarioDir, goldenFileName(index));
}

export function readGolden(scenarioDir: string, index: number): Buffer | undefined {
  const file = goldenPath(scenarioDir, index);
  return existsSync(file) ? readFileSync(file) : undefined;
}

/**
 * Keys whose values differ on every run and are never compared (R10): replaced by fixed values. The
 * placeholders stay valid for the schemas (a filename-safe session id; numbered uuids keep lines distinct).
 */
const VOLATILE: Record<string, unknown> = {
  session_id: 'golden-session',
  duration_ms: 0,
  duration_api_ms: 0,
  total_cost_usd: 0,
  timestamp: '<timestamp>',
};

/** What stays the same while one stdout is stabilised: the paths to normalise, the uuid count, the volatile keys. */
interface Stabiliser {
  context: NormaliseContext;
  /** uuids seen so far in this stdout: each becomes golden-uuid-N in order. */
  uuids: { count: number };
  volatile: Record<string, unknown>;
}

function stabilise(value: unknown, stabiliser: Stabiliser, depth = 0): unknown {
  if (typeof value === 'string') return normaliseText(value, stabiliser.context);
  if (depth >= MAX_COMPARED_DEPTH && value && typeof value === 'object') return TOO_DEEP_MARKER;
  if (Array.isArray(value)) return value.map((item) => stabilise(item, stabiliser, depth + 1));
  if (value && typeof value === 'object') {
    // Built with Object.fromEntries and own-key lookups: a `__proto__` key (own data after JSON.parse) stays
    // a key of the copy, never its prototype, and no inherited name counts as volatile.
    const { uuids, volatile } = stabiliser;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        if (key === 'uuid' && typeof item === 'string') {
          uuids.count += 1;
          return [key, `golden-uuid-${uuids.count}`];
        }
        return [
          key,
          Object.hasOwn(volatile, key) && item !== undefined && item !== null
            ? volatile[key]
            : stabilise(item, stabiliser, depth + 1),
        ];
      }),
    );
  }
  return value;
}

/**
 * The golden text of a captured stdout: every JSON line stabilised, LF line endings. `moreVolatile` adds keys
 * another program fills with per-run values (Claude Code's retry jitter, timings).
 */
export function goldenText(
  stdout: Buffer,
  context: NormaliseContext,
  moreVolatile: Record<string, unknown> = {},
): string {
  const stabiliser: Stabiliser = { context, uuids: { count: 0 }, volatile: { ...VOLATILE, ...moreVolatile } };
  const lines = stdout.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines
    .map((line) => {
      const trimmed = line.replace(/\r$/, '');
      try {
        return JSON.stringify(stabilise(JSON.parse(trimmed), stabiliser));
      } catch {
        return trimmed; // kept as printed; `validate` on the golden will say what is wrong with it
      }
    })
    .map((line) => `${line}\n`)
    .join('');
}
