// What a check gets to report with. The validator owns severity, fix text, excerpts and the per-rule cap.
import type { Profile } from '../types.js';

export interface CheckContext {
  readonly profile: Profile;
  /** Reports a finding for a catalog rule; ignored when the rule does not belong to the profile. */
  report(rule: string, line: number | undefined, message: string): void;
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A short JSON rendering of a value for messages (never the whole of a large value). */
export function brief(value: unknown, max = 60): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    // Too deep for JSON.stringify (String() would recurse as well): describe the value's kind only.
    text = Array.isArray(value)
      ? '[a deeply nested array]'
      : typeof value === 'object' && value !== null
        ? '{a deeply nested object}'
        : typeof value;
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
