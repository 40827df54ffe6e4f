// What a check gets to report with. The validator owns severity, fix text, excerpts and the per-rule cap.
import type { Profile } from '../types.js';

export interface CheckContext {
  readonly profile: Profile;
  /** Reports a finding for a catalog rule; ignored when the rule does not belong to the profile. */
  report(rule: string, line: number | undefined, message: string): void;
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A short JSON rendering of a value for messages (never the whole of a large value). */
export function brief(value: unknown, max = 60): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value); // cyclic or too deep: fall back to a plain description
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
