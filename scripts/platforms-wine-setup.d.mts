// Types for platforms-wine-setup.mjs, so the Windows lane's test can call it.
export const WINE_PINS: { node: Record<'20' | '22', string>; postject: string };
export const STAND_INS_SOURCE: string;
export function ensureWinePlatform(): Promise<{
  wine: string;
  prefix: string;
  nodes: Record<'20' | '22', string>;
  standIns: { all: string; gitOnly: string };
}>;
