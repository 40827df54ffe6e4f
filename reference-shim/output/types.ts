// Minimal shapes of the lines the shim prints. They mirror schemas/*.schema.json (owned by the schema
// author); when generated/protocol.ts exists these are checked against it in test/shim/output-types.test.ts.

/** Token counts as printed in `usage` lines and `result.usage` (R4: integers 0..2^32-1). */
export interface UsageFields {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface ResultUsage extends UsageFields {
  /** true when the provider reported nothing and the shim counted characters instead (R4). */
  estimated?: boolean;
}

export interface InitLine {
  type: 'system';
  subtype: 'init';
  session_id: string;
  model: string;
  cwd: string;
  permissionMode: string;
  tools: string[];
  uuid: string;
  [extra: string]: unknown;
}

export interface FlatResultLine {
  type: 'result';
  subtype: string;
  is_error: boolean;
  session_id: string;
  uuid: string;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  result?: string;
  usage?: ResultUsage;
  total_cost_usd?: number;
  errors?: string[];
}

/** Any line: every one carries `type` and a unique `uuid` (the app drops byte-identical repeats). */
export interface OutputLine {
  type: string;
  uuid: string;
  [field: string]: unknown;
}
