// The release of an official CLI the drift check looks at: the newest one on the registry (what `npm view`
// says), a given version, or a local tarball; installed into the real-programs cache next to the pins.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PINNED } from '../official-cli/pinned/index.js';
import type { OfficialCliName } from '../official-cli/script-types.js';

export type CandidateSource =
  | { kind: 'latest' }
  | { kind: 'version'; version: string }
  | { kind: 'tarball'; file: string };

export interface InstalledCandidate {
  executable: string;
  /** What was asked for, for the report (`latest (0.62.0)`, `0.60.0`, `tarball x.tgz`). */
  label: string;
}

const BIN: Record<OfficialCliName, string> = { gemini: 'gemini', codex: 'codex', claude: 'claude', copilot: 'copilot' };

function npm(args: string[], options: { cwd?: string } = {}): string {
  return execFileSync('npm', args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    shell: process.platform === 'win32',
    timeout: 600_000,
    ...options,
  });
}

/** Installs `spec` (a package@version or a tarball path) once into `folder`; returns the CLI's executable. */
function installInto(folder: string, spec: string, cli: OfficialCliName): string {
  const bin = path.join(folder, 'node_modules', '.bin', process.platform === 'win32' ? `${BIN[cli]}.cmd` : BIN[cli]);
  if (existsSync(bin)) return bin;
  const partial = `${folder}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  npm(['install', '--no-audit', '--no-fund', '--no-save', '--prefix', partial, spec]);
  rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
  if (!existsSync(bin)) throw new Error(`${spec} installed, but it has no ${BIN[cli]} executable in ${folder}`);
  return bin;
}

export function installCandidate(cli: OfficialCliName, source: CandidateSource, cacheDir: string): InstalledCandidate {
  const pkg = PINNED[cli].package;
  if (source.kind === 'tarball') {
    const file = path.resolve(source.file);
    const hash = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
    const folder = path.join(cacheDir, `${pkg.replace('/', '+')}@tarball-${hash}`);
    return { executable: installInto(folder, file, cli), label: `tarball ${path.basename(file)}` };
  }
  const version = source.kind === 'version' ? source.version : npm(['view', pkg, 'version']).trim();
  const folder = path.join(cacheDir, `${pkg.replace('/', '+')}@${version}`);
  return {
    executable: installInto(folder, `${pkg}@${version}`, cli),
    label: source.kind === 'latest' ? `latest (${version})` : version,
  };
}
