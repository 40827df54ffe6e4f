// Tool calls the Responses API sends as `custom_tool_call` (free-form input, such as codex's apply_patch)
// rather than as a function call: whoever maps a scripted call to such a tool marks it, and the Responses
// renderer asks.
import type { ScriptToolCall } from './scenario-types.js';

const CUSTOM_CALLS = new WeakSet<object>();

export function markCustomToolCall(call: ScriptToolCall): ScriptToolCall {
  CUSTOM_CALLS.add(call);
  return call;
}

export function isCustomToolCall(call: ScriptToolCall): boolean {
  return CUSTOM_CALLS.has(call);
}
