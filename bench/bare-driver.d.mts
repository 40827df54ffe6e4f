// Types of bare-driver.mjs for the TypeScript tests that drive it.
export declare const BARE_TIMEOUT_MS: number;

/** The run settings preflight() judges a selection's runs with, as the suite's own runner sets them. */
export declare function preflightSettings(
  suite: { shim: string; capabilities: unknown },
  protocolVersion: string,
): {
  shim: string;
  shimArgs: string[];
  userEnv: Record<string, string>;
  timeoutMs: number;
  platform: NodeJS.Platform;
  capabilities: any;
  protocolVersion: string;
};

/** What a bare run took: its processes' summed wall time, and how many the driver had to end at its limit. */
export interface BareRun {
  elapsed: number;
  timedOut: number;
}

/** Plays one run of the matrix bare (see bare-driver.mjs for `context`). */
export declare function bareRun(spec: unknown, persistent: boolean, context: unknown): Promise<BareRun>;
