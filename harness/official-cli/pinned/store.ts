// Where the pinned data lives in the checkout: harness/official-cli/pinned/<cli>.json (what the fakes
// import) and help/<cli>[-<command>].txt (the raw help, for reading and for diffs).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PinnedCli } from './pinned-types.js';

export function helpFileName(cli: string, command: string): string {
  return `${[cli, ...command.split(' ').filter(Boolean)].join('-')}.txt`;
}

/** Writes `<dir>/<cli>.json` and the help texts under `<dir>/help/`. */
export function writePinnedCli(dir: string, pinned: PinnedCli): void {
  mkdirSync(path.join(dir, 'help'), { recursive: true });
  writeFileSync(path.join(dir, `${pinned.cli}.json`), `${JSON.stringify(pinned, null, 2)}\n`);
  for (const [command, recorded] of Object.entries(pinned.commands)) {
    writeFileSync(path.join(dir, 'help', helpFileName(pinned.cli, command)), recorded.help);
  }
}
