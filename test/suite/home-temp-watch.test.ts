// workspace.outside-home-temp: new top-level entries of the real home and the system temp folder during a suite
// are one INFO note per folder on the suite, naming the paths and the variable a shim ignored; the runner's
// own folders and the caches it knows are never listed. Every folder here is the test's own (injected roots).
import { chownSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validatorFor } from '../../harness/protocol/schemas.js';
import {
  defaultWatchedRoots,
  HomeTempWatch,
  REAL_HOME_VARIABLE,
  SYSTEM_TEMP_VARIABLE,
  type WatchedRoot,
} from '../../harness/suite/home-temp-watch.js';
import { runSuiteWithResults } from '../helpers/nothing-left-open.js';
import { fixtureShim } from '../runner/helpers/run-fixture.js';

const posix = process.platform !== 'win32';

function ownRoots(): { home: string; temp: string; roots: WatchedRoot[] } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'yc-watch-'));
  const home = path.join(base, 'home');
  const temp = path.join(base, 'tmp');
  mkdirSync(home);
  mkdirSync(temp);
  return {
    home,
    temp,
    roots: [
      { label: 'the real home', folder: home, variable: 'HOME' },
      { label: 'the system temp folder', folder: temp, variable: 'TMPDIR' },
    ],
  };
}

describe('the real home and the system temp folder, watched around a suite', () => {
  it('notes new entries per folder with the ignored variable; known, own and earlier entries are not listed', () => {
    const { home, temp, roots } = ownRoots();
    writeFileSync(path.join(home, '.before'), '');
    const scratch = path.join(temp, 'runner-scratch');
    const watch = HomeTempWatch.start(roots, [path.join(scratch, 'runs')]);
    writeFileSync(path.join(home, '.stray-config'), '');
    writeFileSync(path.join(temp, 'stray.txt'), '');
    mkdirSync(path.join(temp, 'yume-conformance-plain-text-abc'));
    mkdirSync(path.join(temp, 'node-compile-cache'));
    mkdirSync(path.join(temp, 'yume-shim-cache-1000'));
    mkdirSync(path.join(scratch, 'runs'), { recursive: true });
    const notes = watch.finish();
    expect(notes.map((note) => [note.rule, note.severity])).toEqual([
      ['workspace.outside-home-temp', 'INFO'],
      ['workspace.outside-home-temp', 'INFO'],
    ]);
    expect(notes[0]!.message).toContain(path.join(home, '.stray-config'));
    expect(notes[0]!.message).toContain('ignores HOME');
    expect(notes[0]!.message).not.toContain('.before');
    expect(notes[1]!.message).toContain(path.join(temp, 'stray.txt'));
    expect(notes[1]!.message).toContain('ignores TMPDIR');
    for (const known of ['yume-conformance-plain-text', 'node-compile-cache', 'yume-shim-cache', 'runner-scratch'])
      expect(notes[1]!.message).not.toContain(known);
  });

  // The shims run as the runner's user: an entry another user owns is none of theirs (another user's program).
  it("lists only entries owned by the user the shims run as, and says that user's other programs may show", () => {
    const { temp, roots } = ownRoots();
    const owners = new Map([[path.join(temp, 'someone-elses'), 4242]]);
    const owner = { uid: 1000, ownerOf: (file: string) => owners.get(file) ?? 1000 };
    const watch = HomeTempWatch.start(roots, [], owner);
    writeFileSync(path.join(temp, 'someone-elses'), '');
    writeFileSync(path.join(temp, 'ours'), '');
    const [note, ...rest] = watch.finish();
    expect(rest).toEqual([]);
    expect(note!.message).toContain(path.join(temp, 'ours'));
    expect(note!.message).not.toContain('someone-elses');
    expect(note!.message).toContain(
      "only entries of the user the shims run as (uid 1000) are listed; that user's other programs may have made them too",
    );
    // Where entries have no owner (Windows), every new one is listed.
    const other = ownRoots();
    const anyone = HomeTempWatch.start(other.roots, [], { uid: undefined, ownerOf: () => 4242 });
    writeFileSync(path.join(other.temp, 'anyones'), '');
    const [listed] = anyone.finish();
    expect(listed!.message).toContain(path.join(other.temp, 'anyones'));
    expect(listed!.message).toContain('other programs on this machine may have made them too');
  });

  it.runIf(posix && process.getuid?.() === 0)('reads owners from the file system (a file given to nobody)', () => {
    const { temp, roots } = ownRoots();
    const watch = HomeTempWatch.start(roots);
    const given = path.join(temp, 'given-away');
    writeFileSync(given, '');
    chownSync(given, 65534, 65534);
    writeFileSync(path.join(temp, 'kept'), '');
    const [note] = watch.finish();
    expect(note!.message).toContain('kept');
    expect(note!.message).not.toContain('given-away');
  });

  it('says nothing when nothing new appeared, or when a folder cannot be read', () => {
    const { roots } = ownRoots();
    expect(HomeTempWatch.start(roots).finish()).toEqual([]);
    const missing = [{ label: 'the real home', folder: path.join(roots[0]!.folder, 'absent'), variable: 'HOME' }];
    expect(HomeTempWatch.start(missing).finish()).toEqual([]);
  });

  it.runIf(posix)('finds the real home and /tmp whatever HOME and TMPDIR say, unless told other folders', () => {
    const roots = defaultWatchedRoots('linux', { HOME: '/elsewhere', TMPDIR: '/elsewhere/tmp' });
    expect(roots.map((root) => [root.folder, root.variable])).toEqual([
      [os.userInfo().homedir, 'HOME'],
      ['/tmp', 'TMPDIR'],
    ]);
    const injected = defaultWatchedRoots('linux', { [REAL_HOME_VARIABLE]: '/a', [SYSTEM_TEMP_VARIABLE]: '/b' });
    expect(injected.map((root) => root.folder)).toEqual(['/a', '/b']);
  });
});

describe.runIf(posix).concurrent('a suite notes a shim that ignores HOME and TMPDIR, on the suite', () => {
  const suite = (shim: string, home: string, temp: string, roots: WatchedRoot[]) =>
    runSuiteWithResults({
      shim: fixtureShim(shim),
      providers: ['openai-chat'],
      scenarios: ['plain-text'],
      env: { YUME_TEST_REAL_HOME: home, YUME_TEST_SYSTEM_TEMP: temp },
      watchedRoots: roots,
    });

  it('ignores-home-and-tmpdir.mjs: one INFO note per folder, not a warning, the run itself passes', async () => {
    const { home, temp, roots } = ownRoots();
    const { report } = await suite('ignores-home-and-tmpdir.mjs', home, temp, roots);
    const notes = report.suiteFindings ?? [];
    expect(notes.map((note) => note.rule)).toEqual(['workspace.outside-home-temp', 'workspace.outside-home-temp']);
    expect(notes[0]!.message).toMatch(new RegExp(`${home}/ignored-variable-[^,]+\\.txt`));
    expect(notes[1]!.message).toMatch(new RegExp(`${temp}/ignored-variable-[^,]+\\.txt`));
    expect(report.summary.warnings).toBe(0);
    expect(report.runs.map((run) => run.status)).toEqual(['passed']);
    expect(report.exitCode).toBe(0);
    expect(validatorFor('report.schema.json')(report)).toBe(true);
  });

  it('writes-home-and-tmpdir.mjs (its own HOME and TMPDIR only): no note, and the run passes', async () => {
    const { home, temp, roots } = ownRoots();
    const { report } = await suite('writes-home-and-tmpdir.mjs', home, temp, roots);
    expect(report.suiteFindings).toBeUndefined();
    expect(report.runs.map((run) => [run.status, run.findings])).toEqual([['passed', []]]);
  });
});
