// Scenario workspaces are git repositories, as the projects Yume opens are (and official CLIs behave
// differently outside one: codex refuses to start). Each scenario's fixtures are committed once per suite
// invocation into a template folder (git makes one empty repository per suite, the commits are written
// without starting it: git-objects.ts), then copied into every run of that scenario; a run's repository
// borrows the template's objects (git's alternates) rather than copying them, so the template outlives the
// runs (with --keep it stays, as their folders do). The commit is made with a fixed author, committer and
// date, and without the user's git configuration, templates, hooks or signing, so the same fixtures give
// the same commit hash on every machine.

import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { YumeError, type YumeErrorOptions } from '../../../common/errors.js';
import type { LoadedScenario } from '../../mock/scenario/scenario-types.js';
import { type NotVerified, runNotVerified } from '../../rules/not-verified.js';
import { type CommitIdentity, writeFixtureCommit } from './git-objects.js';
import { scratchDirectory } from './scratch-dir.js';
import { copyTree } from './workspace.js';

/** Author and committer of every fixture commit. */
export const FIXTURE_AUTHOR = { name: 'yume-conformance', email: 'fixtures@yume-conformance.invalid' } as const;
/** The fixed date of every fixture commit (a date in the past: git refuses none, and it never moves). */
export const FIXTURE_DATE = '2025-01-01T00:00:00+00:00';
export const FIXTURE_MESSAGE = 'scenario fixtures';
const GIT_TIMEOUT_MS = 30_000;

/**
 * A scenario's prepared workspace: the folder to copy into a run (and, for a repository, its objects folder
 * for the copy to borrow), or why the run cannot be verified.
 */
export type PreparedWorkspace =
  | { source: string | undefined; commit?: string; gitObjects?: string }
  | { notVerified: NotVerified };

/**
 * The environment of every git command: PATH (and what Windows needs to start a program) from `parent`,
 * nothing else of the user's, so no GIT_* variable, global or system configuration reaches the commit.
 */
export function gitEnvironment(parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'Path', 'SystemRoot', 'SYSTEMROOT', 'windir', 'ComSpec', 'PATHEXT']) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: FIXTURE_AUTHOR.name,
    GIT_AUTHOR_EMAIL: FIXTURE_AUTHOR.email,
    GIT_AUTHOR_DATE: FIXTURE_DATE,
    GIT_COMMITTER_NAME: FIXTURE_AUTHOR.name,
    GIT_COMMITTER_EMAIL: FIXTURE_AUTHOR.email,
    GIT_COMMITTER_DATE: FIXTURE_DATE,
    // HOME points nowhere useful, so nothing git looks up there (XDG config, credential helpers) is found.
    HOME: os.devNull,
    XDG_CONFIG_HOME: os.devNull,
  };
}

/** Settings every command gets on its command line, whatever a repository's own config says. */
const FIXED_CONFIG = [
  '-c',
  'commit.gpgsign=false',
  '-c',
  'tag.gpgsign=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.safecrlf=false',
  '-c',
  `core.hooksPath=${os.devNull}`,
  '-c',
  'init.defaultBranch=main',
];

/** git is not installed (code GIT_MISSING): scenarios that need a repository are not verified. */
class GitMissing extends YumeError {
  override name = 'GitMissing';
  constructor(command: string, options?: YumeErrorOptions) {
    super('GIT_MISSING', `${command} was not found`, options);
  }
}

function git(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...FIXED_CONFIG, ...args],
      { cwd, env, timeout: GIT_TIMEOUT_MS, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout.trim());
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          return reject(new GitMissing(command, { cause: error }));
        const said = stderr.trim().split('\n').at(-1) ?? '';
        reject(new Error(`git ${args.join(' ')} failed in ${cwd}: ${said || error.message}`, { cause: error }));
      },
    );
  });
}

/** The fixture commit's author and committer, date and message. */
const FIXTURE_IDENTITY: CommitIdentity = {
  ...FIXTURE_AUTHOR,
  epochSeconds: Date.parse(FIXTURE_DATE) / 1000,
  message: FIXTURE_MESSAGE,
};

/** git init in `dir`: HEAD, and the config git chose for this platform and filesystem. */
async function initRepository(dir: string, command: string, env: Record<string, string>): Promise<void> {
  // `--template=` leaves out the default template, so no sample hooks and no info/exclude.
  await git(command, ['init', '--quiet', '--template=', dir], dir, env);
}

/**
 * Makes `dir` (holding the fixtures, or empty) a repository with one commit of everything in it, and returns
 * the commit hash. git makes the repository; the commit is written without it (git-objects.ts), as
 * `git add --all --force . && git commit` would make it, and holds only what a fresh clone holds (no reflog).
 */
export async function commitFixtures(
  dir: string,
  options: { git?: string; parent?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  await initRepository(dir, options.git ?? 'git', gitEnvironment(options.parent));
  return writeFixtureCommit(dir, FIXTURE_IDENTITY);
}

/**
 * The suite invocation's cache of scenario workspaces: one git template per scenario, made on first use and
 * removed by close(). Scenarios marked `"git": false` use their fixtures as they are.
 */
export class WorkspaceTemplates {
  private readonly prepared = new Map<string, Promise<PreparedWorkspace>>();
  private root: Promise<string> | undefined;
  /** An empty repository git made once per suite: every template starts as a copy of its `.git`. */
  private skeleton: Promise<string> | undefined;
  private readonly git: string;
  private readonly parent: NodeJS.ProcessEnv;
  private readonly keep: boolean;
  private readonly base: string | undefined;

  /** `keep`: close() leaves the templates (runs kept with --keep borrow their objects). */
  /** `base`: the folder the templates go in (default: scratchDirectory(), scratch-dir.ts). */
  constructor(options: { git?: string; parent?: NodeJS.ProcessEnv; keep?: boolean; base?: string } = {}) {
    this.git = options.git ?? 'git';
    this.base = options.base;
    this.parent = options.parent ?? process.env;
    this.keep = options.keep ?? false;
  }

  /** The folder to copy into a run of `scenario` (cached), or why the run cannot be verified. */
  prepare(scenario: LoadedScenario): Promise<PreparedWorkspace> {
    if (scenario.git === false) return Promise.resolve({ source: scenario.workspaceDir });
    // Keyed by folder too: tests load scenarios with the same id from different places.
    const key = `${scenario.id}\0${scenario.dir}\0${scenario.workspaceDir ?? ''}`;
    let entry = this.prepared.get(key);
    if (!entry) {
      entry = this.makeTemplate(scenario, this.prepared.size);
      this.prepared.set(key, entry);
    }
    return entry;
  }

  private async makeTemplate(scenario: LoadedScenario, index: number): Promise<PreparedWorkspace> {
    this.root ??= mkdtemp(path.join(this.base ?? scratchDirectory().directory, 'yume-conformance-git-'));
    const dir = path.join(await this.root, `${index}-${scenario.id}`);
    if (scenario.workspaceDir) await cp(scenario.workspaceDir, dir, { recursive: true, verbatimSymlinks: true });
    else await mkdir(dir, { recursive: true });
    try {
      this.skeleton ??= this.makeSkeleton();
      copyTree(path.join(await this.skeleton, '.git'), path.join(dir, '.git'));
      const commit = await writeFixtureCommit(dir, FIXTURE_IDENTITY);
      return { source: dir, commit, gitObjects: path.join(dir, '.git', 'objects') };
    } catch (error) {
      if (error instanceof GitMissing) {
        return {
          notVerified: runNotVerified(
            'platform',
            `git (${this.git}) is not on PATH: scenario workspaces are git repositories; install git, or only scenarios marked "git": false can run`,
          ),
        };
      }
      throw error;
    }
  }

  private async makeSkeleton(): Promise<string> {
    const dir = path.join(await this.root!, 'skeleton');
    await mkdir(dir, { recursive: true });
    await initRepository(dir, this.git, gitEnvironment(this.parent));
    return dir;
  }

  /** Removes every template, once no run needs it (unless kept). */
  async close(): Promise<void> {
    const root = this.root;
    this.root = undefined;
    this.prepared.clear();
    this.skeleton = undefined;
    if (root && !this.keep) await rm(await root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
