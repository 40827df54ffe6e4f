// What test/validate/captures.test.ts writes down for one real CLI capture, and the reasons several captures share.

export interface ExpectedVerdict {
  dialect: string;
  /** Findings as "rule@line", per profile. */
  spec: string[];
  app: string[];
  /** Why each finding is there (or why there is none). */
  reason: string;
}

export const ZERO_USAGE =
  'claude ends the error turn with result.usage 0/0: a SHOULD under spec (R4), a MUST under yume-app because the app shows it as a compaction';
export const GEMINI =
  'Gemini CLI native dialect (`init`, `message`, tool_name/tool_id, result.stats), not stream-json (R1)';
export const CODEX = 'Codex native dialect (`thread.*`, `turn.*`, `item.*`), not stream-json (R1)';
