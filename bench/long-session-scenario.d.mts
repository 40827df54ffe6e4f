// Types of long-session-scenario.mjs for its test.
import type { Scenario } from '../harness/mock/scenario/scenario-types.js';

export declare function partFileName(turn: number): string;

export declare function partFirstLine(turn: number): string;

export declare function partText(turn: number, bytes: number): string;

export declare function longSessionScenario(id: string, turns: number): Scenario;

export declare function writeLongSession(
  root: string,
  session: { id: string; turns: number; fileBytes: number },
): string;
