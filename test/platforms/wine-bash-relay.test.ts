// The Wine lane's bash, without Wine: the bash.exe stand-in's own code (wine-stand-ins/bash.cjs) run by Linux
// Node against the relay (wine-bash-relay.ts). Its bytes, stderr and exit code come back as bash gave them, a
// stand-in killed mid-command takes the command's whole group with it, and Windows paths and variables are
// mapped through the prefix's drive links.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BashRelay, linuxEnvironment, RELAY_VARIABLE, startBashRelay, unixPathOf } from './wine-bash-relay.js';

const STAND_IN = path.join(import.meta.dirname, 'wine-stand-ins', 'bash.cjs');
let relay: BashRelay;
let prefix: string;
let workspace: string;

interface StandInRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: Buffer; stderr: string }>;
}

/** The stand-in as its Windows executable runs it (main.cjs), under Linux Node. */
function standIn(args: string[], env: NodeJS.ProcessEnv = { [RELAY_VARIABLE]: relay.address }): StandInRun {
  const script = `require(${JSON.stringify(STAND_IN)}).bashStandIn(process.argv.slice(1)).then((code) => process.exit(code))`;
  const child = spawn(process.execPath, ['-e', script, '--', ...args], { cwd: workspace, env, stdio: 'pipe' });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const done = new Promise<{ code: number | null; stdout: Buffer; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout), stderr })),
  );
  return { child, done };
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end && !check()) await new Promise((resolve) => setTimeout(resolve, 25));
  return check();
}

// The relay runs where the Wine lane runs: on Linux (Debian's /bin/bash; /proc for a group's members).
describe.runIf(process.platform === 'linux')("the Wine lane's bash", () => {
  beforeAll(async () => {
    // A Wine prefix's drive links: c: → drive_c, z: → /.
    prefix = mkdtempSync(path.join(tmpdir(), 'relay-prefix-'));
    mkdirSync(path.join(prefix, 'dosdevices'));
    mkdirSync(path.join(prefix, 'drive_c', 'users', 'root', 'Temp'), { recursive: true });
    symlinkSync('../drive_c', path.join(prefix, 'dosdevices', 'c:'));
    symlinkSync('/', path.join(prefix, 'dosdevices', 'z:'));
    workspace = mkdtempSync(path.join(tmpdir(), 'relay-workspace-'));
    relay = await startBashRelay({ prefix });
  });

  afterAll(async () => {
    await relay.stop();
    rmSync(prefix, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  describe('the bash.exe stand-in and its relay', () => {
    it("passes on bash's raw stdout, its stderr and its exit code, in the stand-in's folder", async () => {
      const command = "printf 'raw: \\377\\376 ok \\342\\202\\254\\n'; echo oops >&2; pwd; exit 3";
      const { code, stdout, stderr } = await standIn(['-c', command]).done;
      expect(code).toBe(3);
      expect(stdout).toEqual(
        Buffer.concat([Buffer.from('raw: '), Buffer.from([0xff, 0xfe]), Buffer.from(` ok €\n${workspace}\n`)]),
      );
      expect(stderr).toBe('oops\n');
    });

    it('carries 5 MB of output whole', async () => {
      const { code, stdout } = await standIn(['-c', 'yes yume-conformance-large-output-line | head -c 5242880']).done;
      expect(code).toBe(0);
      expect(stdout.length).toBe(5_242_880);
      expect(stdout.subarray(0, 35).toString()).toBe('yume-conformance-large-output-line\n');
    });

    it("ends the command's whole process group when the stand-in is killed", async () => {
      const run = standIn(['-c', 'sleep 30 & echo $! > sleep.pid; wait']);
      const pidFile = path.join(workspace, 'sleep.pid');
      expect(await waitFor(() => readFileSync(pidFile, { flag: 'a+' }).toString().endsWith('\n'), 10_000)).toBe(true);
      const sleeping = Number(readFileSync(pidFile, 'utf8'));
      run.child.kill('SIGKILL');
      await run.done;
      const running = () => {
        try {
          return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${sleeping}/stat`, 'utf8'));
        } catch {
          return false;
        }
      };
      expect(await waitFor(() => !running(), 5000)).toBe(true);
      expect(relay.leftovers()).toEqual([]);
    });

    it('says what is wrong when it has no relay to ask', async () => {
      const { code, stderr } = await standIn(['-c', 'true'], {}).done;
      expect(code).toBe(127);
      expect(stderr).toBe('bash (Wine stand-in): YUME_WINE_BASH_RELAY is not set, not host:port\n');
    });
  });

  describe('paths and variables from Windows', () => {
    it('maps drive paths through the drive links, matching a component without regard to case', () => {
      expect(unixPathOf('C:\\users\\root\\temp\\run 1', prefix)).toBe(
        path.join(prefix, 'dosdevices', 'c:', 'users', 'root', 'Temp', 'run 1'),
      );
      expect(unixPathOf('Z:\\tmp\\x', prefix)).toBe(path.join(prefix, 'dosdevices', 'z:', 'tmp', 'x'));
      expect(unixPathOf('\\\\server\\share', prefix)).toBeUndefined();
    });

    it("gives bash Debian's PATH and the Windows folders as Linux paths", () => {
      const env = linuxEnvironment(
        {
          Path: 'C:\\windows\\system32;C:\\windows',
          PATHEXT: '.COM;.EXE',
          HOME: 'C:\\users\\root',
          TEMP: 'C:\\users\\root\\Temp',
          '=C:': 'C:\\',
          YUME_SHIM_TOOL_RUN: 'marker',
        },
        prefix,
      );
      expect(env).toEqual({
        PATH: '/usr/local/bin:/usr/bin:/bin',
        HOME: path.join(prefix, 'dosdevices', 'c:', 'users', 'root'),
        TEMP: path.join(prefix, 'dosdevices', 'c:', 'users', 'root', 'Temp'),
        TMPDIR: path.join(prefix, 'dosdevices', 'c:', 'users', 'root', 'Temp'),
        YUME_SHIM_TOOL_RUN: 'marker',
      });
    });
  });
});
