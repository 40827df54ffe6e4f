// Compares the assertions of the test suite between two git revisions, so a refactoring that moves, splits or
// rewrites tests can show that no check was lost (or list each one that was, next to its replacement).
//   node scripts/count-assertions.mjs <rev-a> <rev-b>     e.g. main HEAD
// Files are read as `rev:path` blobs (what `git show rev:path` prints; no checkout). Counted per file and per test (describe chain + name):
//   - `expect(...)`, and the assertion helpers `expect.soft/poll/assertions/hasAssertions/unreachable(...)`;
//   - `assert(...)` and `assert.<method>(...)`.
// Asymmetric matchers (`expect.any`, `expect.objectContaining`, ...) only describe a value inside an assertion,
// so they are not counted. Assertions outside any `it`/`test` (helpers, hooks) count under "(outside tests)".
// A test that leaves its file but keeps its full name in another file counts as moved, not removed.
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const TEST_FILE = /\.(?:[cm]?ts|[cm]?js|tsx)$/;
const EXPECT_HELPERS = new Set(['soft', 'poll', 'assertions', 'hasAssertions', 'unreachable']);
const TEST_CALLS = new Set(['it', 'test']);
const SUITE_CALLS = new Set(['describe', 'suite']);
const OUTSIDE = '(outside tests)';

/** @typedef {Map<string, number>} TestCounts  full test name -> assertions */
/** @typedef {Map<string, TestCounts>} RevisionCounts  file -> its tests */

/**
 * @param {string[]} args
 * @returns {string}
 */
function git(args) {
  return execFileSync('git', args, {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * @param {string} rev
 * @returns {string} the commit the revision names
 */
function resolveRevision(rev) {
  try {
    return git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).trim();
  } catch {
    throw new Error(`count-assertions: "${rev}" names no commit here; pass a branch, tag or hash (e.g. main HEAD)`);
  }
}

/**
 * The name a test call is known by: the root identifier of `it`, `it.skip`, `it.each(...)`, `test.skipIf(x)`.
 * @param {ts.Expression} callee
 * @returns {string | undefined}
 */
function rootName(callee) {
  let node = callee;
  for (;;) {
    if (ts.isIdentifier(node)) return node.text;
    if (ts.isPropertyAccessExpression(node)) node = node.expression;
    else if (ts.isCallExpression(node)) node = node.expression;
    else if (ts.isTaggedTemplateExpression(node)) node = node.tag;
    else return undefined;
  }
}

/**
 * @param {ts.CallExpression} call
 * @param {ts.SourceFile} source
 * @returns {string}
 */
function titleOf(call, source) {
  const first = call.arguments[0];
  if (first === undefined) return '(unnamed)';
  if (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) return first.text;
  return first.getText(source);
}

/**
 * @param {ts.CallExpression} call
 * @returns {boolean}
 */
function isAssertion(call) {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text === 'expect' || callee.text === 'assert';
  if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.expression)) return false;
  if (callee.expression.text === 'assert') return true;
  return callee.expression.text === 'expect' && EXPECT_HELPERS.has(callee.name.text);
}

/**
 * @param {string} fileName
 * @param {string} text
 * @returns {TestCounts}
 */
export function countFile(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  /** @type {TestCounts} */
  const counts = new Map();
  /** @type {string[]} */
  const suites = [];
  /** @type {string | undefined} */
  let currentTest;
  /**
   * @param {ts.Node} node
   * @returns {void}
   */
  const visit = (node) => {
    if (!ts.isCallExpression(node)) {
      ts.forEachChild(node, visit);
      return;
    }
    const root = rootName(node.expression);
    const named = root !== undefined && node.arguments.length > 1;
    if (named && SUITE_CALLS.has(root)) {
      suites.push(titleOf(node, source));
      ts.forEachChild(node, visit);
      suites.pop();
      return;
    }
    if (named && TEST_CALLS.has(root) && currentTest === undefined) {
      currentTest = [...suites, titleOf(node, source)].join(' > ');
      counts.set(currentTest, counts.get(currentTest) ?? 0);
      ts.forEachChild(node, visit);
      currentTest = undefined;
      return;
    }
    if (isAssertion(node)) {
      const key = currentTest ?? OUTSIDE;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return counts;
}

/**
 * Reads many `rev:path` blobs through one `git cat-file --batch` (the same objects `git show rev:path` prints,
 * without a process per file: a few hundred spawns took most of a minute on a loaded machine).
 * @param {string[]} specs  `rev:path` each
 * @returns {string[]} their texts, in order
 */
function readBlobs(specs) {
  const output = execFileSync('git', ['cat-file', '--batch'], {
    input: `${specs.join('\n')}\n`,
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  /** @type {string[]} */
  const texts = [];
  let at = 0;
  for (const spec of specs) {
    const headerEnd = output.indexOf(0x0a, at);
    const header = output.subarray(at, headerEnd).toString('utf8');
    const size = Number(header.split(' ')[2]);
    if (!Number.isInteger(size)) throw new Error(`count-assertions: git could not read ${spec} (${header})`);
    texts.push(output.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
    at = headerEnd + 1 + size + 1;
  }
  return texts;
}

/**
 * @param {string} commit
 * @returns {RevisionCounts}
 */
function countRevision(commit) {
  const files = git(['ls-tree', '-r', '--name-only', commit, '--', 'test'])
    .split('\n')
    .filter((file) => TEST_FILE.test(file) && !file.startsWith('test/fixtures/'));
  const texts = readBlobs(files.map((file) => `${commit}:${file}`));
  /** @type {RevisionCounts} */
  const result = new Map();
  files.forEach((file, index) => {
    result.set(file, countFile(file, texts[index] ?? ''));
  });
  return result;
}

/**
 * @param {RevisionCounts} counts
 * @returns {{ assertions: number, tests: number, files: number }}
 */
function totals(counts) {
  let assertions = 0;
  let tests = 0;
  for (const fileTests of counts.values()) {
    for (const [name, count] of fileTests) {
      assertions += count;
      if (name !== OUTSIDE) tests += 1;
    }
  }
  return { assertions, tests, files: counts.size };
}

/**
 * Every file each full test name lives in, for finding where a vanished test went.
 * @param {RevisionCounts} counts
 * @returns {Map<string, { file: string, count: number }[]>}
 */
function byTestName(counts) {
  /** @type {Map<string, { file: string, count: number }[]>} */
  const names = new Map();
  for (const [file, tests] of counts) {
    for (const [name, count] of tests) {
      if (name === OUTSIDE) continue;
      names.set(name, [...(names.get(name) ?? []), { file, count }]);
    }
  }
  return names;
}

/**
 * @typedef {{ file: string, name: string, before: number, after: number | undefined, movedTo?: string }} Change
 */

/**
 * Tests (and outside-test totals) whose count fell or that vanished; moved tests are kept apart.
 * @param {RevisionCounts} before
 * @param {RevisionCounts} after
 * @returns {{ lost: Change[], moved: Change[] }}
 */
export function compare(before, after) {
  const elsewhere = byTestName(after);
  /** @type {Change[]} */
  const lost = [];
  /** @type {Change[]} */
  const moved = [];
  for (const [file, tests] of before) {
    for (const [name, count] of tests) {
      const now = after.get(file)?.get(name);
      if (now !== undefined) {
        if (now < count) lost.push({ file, name, before: count, after: now });
        continue;
      }
      const target = (elsewhere.get(name) ?? []).find(
        (place) => place.file !== file && !before.get(place.file)?.has(name),
      );
      if (target === undefined) lost.push({ file, name, before: count, after: undefined });
      else if (target.count < count)
        lost.push({ file, name, before: count, after: target.count, movedTo: target.file });
      else moved.push({ file, name, before: count, after: target.count, movedTo: target.file });
    }
  }
  return { lost, moved };
}

/**
 * @param {Change} change
 * @returns {string}
 */
function describeChange(change) {
  const where = change.movedTo === undefined ? change.file : `${change.file} -> ${change.movedTo}`;
  const after = change.after === undefined ? 'gone' : String(change.after);
  return `  ${where} :: ${change.name}: ${change.before} -> ${after}`;
}

/** @param {string[]} argv */
function main(argv) {
  if (argv.length !== 2) throw new Error('count-assertions: usage: node scripts/count-assertions.mjs <rev-a> <rev-b>');
  const [revA, revB] = /** @type {[string, string]} */ (argv);
  const before = countRevision(resolveRevision(revA));
  const after = countRevision(resolveRevision(revB));
  const [a, b] = [totals(before), totals(after)];
  console.log(`${revA}: ${a.assertions} assertions in ${a.tests} tests, ${a.files} files`);
  console.log(`${revB}: ${b.assertions} assertions in ${b.tests} tests, ${b.files} files`);
  console.log(`change: ${b.assertions - a.assertions >= 0 ? '+' : ''}${b.assertions - a.assertions} assertions`);
  const { lost, moved } = compare(before, after);
  console.log(`\nfewer assertions or gone (${lost.length}):`);
  for (const change of lost) console.log(describeChange(change));
  console.log(`\nmoved to another file, none lost (${moved.length}):`);
  for (const change of moved) console.log(describeChange(change));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
