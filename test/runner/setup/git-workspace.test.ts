// Scenario workspaces are git repositories with one fixed commit of the fixtures: the same hash on every
// machine whatever the user's git configuration says, copied into each run, left out of the workspace check;
// without git those runs are not verified, and scenarios marked "git": false run in a plain folder.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../harness/mock/scenario/scenario-loader.js';
import { commitFixtures, WorkspaceTemplates } from '../../../harness/runner/setup/git-workspace.js';
import { checkWorkspace, createRunDirectories, removeRunDirectories } from '../../../harness/runner/setup/workspace.js';
import { runSuite } from '../../helpers/nothing-left-open.js';
import { describeFindings, fixtureShim, rules, runFixture, transcripts } from '../helpers/run-fixture.js';

/** The commit of FIXTURES below: changes only if the author, date, message or tree of a fixture commit changes. */
const FIXTURES_COMMIT = '284318fe90edee48c0014c114f69609ea31b0c7d';
const FIXTURES = { 'hello.txt': 'hello\n', 'sub/notes.md': '# notes\n' };

function fixtureDir(files: Record<string, string> = FIXTURES): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yc-git-fixture-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();

/** A HOME whose git configuration would change every commit it could reach: author, signing, hooks, templates. */
function hostileEnvironment(): NodeJS.ProcessEnv {
  const home = mkdtempSync(path.join(os.tmpdir(), 'yc-git-home-'));
  const hooks = path.join(home, 'hooks');
  mkdirSync(path.join(home, 'template', 'hooks'), { recursive: true });
  mkdirSync(hooks);
  for (const hook of [path.join(hooks, 'pre-commit'), path.join(home, 'template', 'hooks', 'pre-commit')]) {
    writeFileSync(hook, '#!/bin/sh\necho refused by a hook >&2\nexit 1\n', { mode: 0o755 });
  }
  const config = [
    '[user]\n\tname = Someone Else\n\temail = else@example.com',
    '[commit]\n\tgpgsign = true',
    '[gpg]\n\tprogram = /nonexistent/gpg',
    `[core]\n\thooksPath = ${hooks}\n\tautocrlf = true`,
    `[init]\n\ttemplateDir = ${path.join(home, 'template')}\n\tdefaultBranch = elsewhere`,
  ].join('\n');
  writeFileSync(path.join(home, '.gitconfig'), `${config}\n`);
  const globalFile = path.join(home, 'global.gitconfig');
  writeFileSync(globalFile, `${config}\n`);
  return {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_GLOBAL: globalFile,
    GIT_AUTHOR_NAME: 'Someone Else',
    GIT_COMMITTER_DATE: '2030-01-01T00:00:00Z',
    GIT_DIR: path.join(home, 'not-a-repo'),
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'user.name',
    GIT_CONFIG_VALUE_0: 'Injected',
  };
}

describe('fixture commits', () => {
  it('have the same hash every time, on every machine', async () => {
    expect(await commitFixtures(fixtureDir())).toBe(FIXTURES_COMMIT);
    expect(await commitFixtures(fixtureDir())).toBe(FIXTURES_COMMIT);
  });

  it("shut out the user's configuration, hooks, templates and signing", async () => {
    const dir = fixtureDir();
    expect(await commitFixtures(dir, { parent: hostileEnvironment() })).toBe(FIXTURES_COMMIT);
    expect(existsSync(path.join(dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(git(dir, 'log', '--format=%an <%ae> %ad %cn %cd', '--date=iso-strict')).toBe(
      'yume-conformance <fixtures@yume-conformance.invalid> 2025-01-01T00:00:00+00:00 yume-conformance 2025-01-01T00:00:00+00:00',
    );
  });

  it('commit an empty workspace too', async () => {
    const dir = fixtureDir({});
    const commit = await commitFixtures(dir);
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(dir, 'ls-tree', '-r', 'HEAD')).toBe('');
  });

  it("are git's own commit, for nested folders, executables, symlinks, binary files and names git sorts oddly", async () => {
    const files = {
      'a.txt': 'dot\n',
      'a/inner.txt': 'inner\n',
      'a-b': 'dash\n',
      'a b/deep/er.md': 'deeper\n',
      'bin.dat': '\u0000\u0001\u00ff binary',
      'run.sh': '#!/bin/sh\necho hi\n',
      'ünïcode.txt': 'naïve\n',
    };
    const ours = fixtureDir(files);
    const theirs = fixtureDir(files);
    for (const dir of [ours, theirs]) {
      chmodSync(path.join(dir, 'run.sh'), 0o755);
      symlinkSync('a.txt', path.join(dir, 'link'));
      mkdirSync(path.join(dir, 'empty'));
    }
    const commit = await commitFixtures(ours);
    const env = {
      GIT_AUTHOR_NAME: 'yume-conformance',
      GIT_AUTHOR_EMAIL: 'fixtures@yume-conformance.invalid',
      GIT_AUTHOR_DATE: '2025-01-01T00:00:00+00:00',
      GIT_COMMITTER_NAME: 'yume-conformance',
      GIT_COMMITTER_EMAIL: 'fixtures@yume-conformance.invalid',
      GIT_COMMITTER_DATE: '2025-01-01T00:00:00+00:00',
    };
    const gitWith = (...args: string[]) =>
      execFileSync('git', ['-c', 'init.defaultBranch=main', '-c', 'core.autocrlf=false', ...args], {
        cwd: theirs,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1', ...env },
      }).trim();
    gitWith('init', '-q', '--template=');
    gitWith('add', '--all', '--force', '.');
    gitWith('commit', '-q', '--no-verify', '--no-gpg-sign', '--allow-empty', '-m', 'scenario fixtures');
    expect(commit).toBe(gitWith('rev-parse', 'HEAD'));
    expect(git(ours, 'status', '--porcelain')).toBe('');
    expect(git(ours, 'ls-files', '--stage')).toBe(gitWith('ls-files', '--stage'));
    expect(() => git(ours, 'fsck', '--strict', '--no-progress')).not.toThrow();
  });

  it('change with the fixtures', async () => {
    expect(await commitFixtures(fixtureDir({ 'hello.txt': 'hello!\n' }))).not.toBe(FIXTURES_COMMIT);
  });
});

describe('scenario workspaces', () => {
  it('are made once per suite and copied into each run as a clean checkout', async () => {
    const scenario = loadScenario(path.join(transcripts, 'single-tool'));
    const templates = new WorkspaceTemplates();
    try {
      const first = await templates.prepare(scenario);
      const again = await templates.prepare(scenario);
      expect(again).toBe(first);
      if ('notVerified' in first) throw new Error(first.notVerified.reason);
      const other = new WorkspaceTemplates();
      const second = await other.prepare(scenario);
      await other.close();
      expect(second).toMatchObject({ commit: first.commit });
      const dirs = await createRunDirectories('git-copy', first.source, { gitObjects: first.gitObjects! });
      try {
        expect(git(dirs.workspace, 'rev-parse', 'HEAD')).toBe(first.commit);
        expect(git(dirs.workspace, 'status', '--porcelain')).toBe('');
        // The copy borrows the template's objects instead of copying them, and reads them all.
        expect(readdirSync(path.join(dirs.workspace, '.git', 'objects'))).toEqual(['info']);
        expect(git(dirs.workspace, 'show', 'HEAD:hello.txt')).toBe(
          readFileSync(path.join(scenario.workspaceDir!, 'hello.txt'), 'utf8').trim(),
        );
        expect(() => git(dirs.workspace, 'fsck', '--no-progress')).not.toThrow();
        // What the run commits goes into its own copy, never into the template.
        const templateObjects = readdirSync(path.join(first.source!, '.git', 'objects')).sort();
        writeFileSync(path.join(dirs.workspace, 'added.txt'), 'added\n');
        git(dirs.workspace, 'add', 'added.txt');
        git(dirs.workspace, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'run');
        git(dirs.workspace, 'reset', '-q', '--hard', first.commit!);
        expect(readdirSync(path.join(first.source!, '.git', 'objects')).sort()).toEqual(templateObjects);
        expect(readdirSync(path.join(dirs.workspace, '.git', 'objects')).length).toBeGreaterThan(1);
        // .git is not part of the workspace check, even after git rewrote its index.
        expect(await checkWorkspace(scenario.workspaceDir, dirs.workspace, 'the fixtures')).toEqual([]);
        writeFileSync(path.join(dirs.workspace, '.git', 'stray'), 'x');
        expect(await checkWorkspace(scenario.workspaceDir, dirs.workspace, 'the fixtures')).toEqual([]);
        writeFileSync(path.join(dirs.workspace, 'stray'), 'x');
        expect((await checkWorkspace(scenario.workspaceDir, dirs.workspace, 'the fixtures'))[0]?.message).toContain(
          'stray: unexpected file',
        );
      } finally {
        await removeRunDirectories(dirs);
      }
      const source = first.source!;
      await templates.close();
      expect(existsSync(source)).toBe(false);
    } finally {
      await templates.close();
    }
  });

  it('hold only what a fresh clone holds, and stay after the suite when kept', async () => {
    const scenario = loadScenario(path.join(transcripts, 'single-tool'));
    const templates = new WorkspaceTemplates({ keep: true });
    const prepared = await templates.prepare(scenario);
    if ('notVerified' in prepared) throw new Error(prepared.notVerified.reason);
    expect(readdirSync(path.join(prepared.source!, '.git')).sort()).toEqual([
      'HEAD',
      'config',
      'index',
      'objects',
      'refs',
    ]);
    expect(git(prepared.source!, 'rev-parse', 'HEAD')).toBe(prepared.commit);
    await templates.close();
    expect(existsSync(prepared.gitObjects!)).toBe(true);
    rmSync(path.dirname(prepared.source!), { recursive: true, force: true });
  });

  it('stay plain folders for scenarios marked "git": false', async () => {
    const scenario = loadScenario(path.join(transcripts, 'plain-text-no-git'));
    expect(scenario.git).toBe(false);
    const templates = new WorkspaceTemplates({ git: path.join(os.tmpdir(), 'no-such-git') });
    expect(await templates.prepare(scenario)).toEqual({ source: scenario.workspaceDir });
    expect(existsSync(path.join(scenario.workspaceDir!, '.git'))).toBe(false);
    await templates.close();
  });
});

describe('a suite invocation', () => {
  it('has removed its templates (and every run folder) by the time it returns', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'yc-suite-tmp-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const report = await runSuite({ scenarios: ['single-tool', 'plain-text'], providers: ['openai-chat'] });
      expect(report.summary.failed).toBe(0);
      expect(report.summary.passed).toBeGreaterThanOrEqual(2);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    expect(readdirSync(tmp)).toEqual([]);
    rmSync(tmp, { recursive: true, force: true });
  });
});

describe('without git', () => {
  const missingGit = path.join(os.tmpdir(), 'yc-no-such-git', 'git');

  it('a required scenario is not verified, and says so', async () => {
    const result = await runFixture(fixtureShim('conforming-mini-shim.mjs'), 'single-tool', { git: missingGit });
    expect(result.status).toBe('not-verified');
    expect(result.notVerified?.[0]).toMatchObject({ scope: 'run', cause: 'platform' });
    expect(result.notVerified?.[0]?.reason).toContain('is not on PATH: scenario workspaces are git repositories');
    expect(rules(result)).toEqual(['scenario.required-verified']);
  });

  it('a scenario marked "git": false still runs', async () => {
    const result = await runFixture(fixtureShim('conforming-mini-shim.mjs'), 'plain-text-no-git', {
      git: missingGit,
    });
    expect(rules(result), describeFindings(result)).toEqual([]);
    expect(result.status).toBe('passed');
  });
});

describe('plain-text-no-git', () => {
  it('runs for every provider id, with the plain-text golden', () => {
    const scenario = loadScenario(path.join(transcripts, 'plain-text-no-git'));
    expect(scenario.providers).toBeUndefined();
    expect(readFileSync(path.join(scenario.dir, 'golden.jsonl'), 'utf8')).toBe(
      readFileSync(path.join(transcripts, 'plain-text', 'golden.jsonl'), 'utf8'),
    );
  });
});
