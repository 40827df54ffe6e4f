// Records a CLI's pinned data from the program itself: `--version` and the help of each command a shim
// uses, with the options read from it. Runs offline (help and version need no network) in a scratch HOME.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  HELP_COMMANDS,
  type PinnedCli,
  type PinnedCommand,
  readHelpOptions,
  versionIn,
} from '../pinned/pinned-types.js';
import type { OfficialCliName } from '../script-types.js';
import { runBounded } from './run-bounded.js';

const PACKAGES: Record<OfficialCliName, string> = {
  gemini: '@google/gemini-cli',
  codex: '@openai/codex',
  claude: '@anthropic-ai/claude-code',
  copilot: '@github/copilot',
};

/** `extraEnv`: what the CLI needs beside a scratch HOME (copilot's unpacked runtime). */
export async function recordPinnedCli(
  cli: OfficialCliName,
  executable: string,
  extraEnv: Record<string, string> = {},
): Promise<PinnedCli> {
  const home = mkdtempSync(path.join(os.tmpdir(), `yume-record-${cli}-`));
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      NO_COLOR: '1',
      TERM: 'dumb',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      ...extraEnv,
    };
    const run = async (args: string[]) => {
      const result = await runBounded(executable, args, { cwd: home, env, timeoutMs: 60_000 });
      if (result.exitCode !== 0 || result.timedOut)
        throw new Error(
          `${cli} ${args.join(' ')} failed (exit ${result.exitCode ?? result.signal}): ${result.stderr.slice(-300)}`,
        );
      return result.stdout;
    };
    const versionText = (await run(['--version'])).trim();
    const commands: Record<string, PinnedCommand> = {};
    for (const [command, helpArgv] of Object.entries(HELP_COMMANDS[cli])) {
      const help = await run(helpArgv);
      commands[command] = { helpArgv, help, options: readHelpOptions(cli, help) };
    }
    return { cli, package: PACKAGES[cli], version: versionIn(versionText), versionText, commands };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
