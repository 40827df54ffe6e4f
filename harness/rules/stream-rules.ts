// Rules judged on one captured stdout by validateStream(). Data only, one list per family in the sibling
// stream-*-rules.ts files, in catalog order; the checks live in ./checks/.
import { APP_RULES } from './stream-app-rules.js';
import { COMPACTION_RULES } from './stream-compaction-rules.js';
import { LINE_RULES } from './stream-line-rules.js';
import { TOOL_RULES } from './stream-tool-rules.js';
import { TURN_OUTCOME_RULES, TURN_RULES } from './stream-turn-rules.js';
import { defineRules } from './types.js';

export const STREAM_RULES = defineRules('stream', [
  ...LINE_RULES,
  ...TURN_RULES,
  ...TOOL_RULES,
  ...TURN_OUTCOME_RULES,
  ...COMPACTION_RULES,
  ...APP_RULES,
]);
