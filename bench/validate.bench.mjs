// Validate throughput: validateStream() on a generated ~100 MB transcript, next to a bare line-split +
// JSON.parse loop over the same bytes, as a ratio (goal: at least 0.5 of the bare loop).
//   node bench/validate.bench.mjs [--mb 100] [--runs 3]
// The validator is bundled from its TypeScript sources with esbuild into .tmp/, so the bench needs no prior build.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importFromSources } from './import-sources.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const targetMb = arg('mb', 100);
const runs = arg('runs', 3);

function loadValidator() {
  return importFromSources('bench-validate', {
    entryPoints: [path.join(root, 'harness', 'validate', 'validate-stream.ts')],
  });
}

/** A multi-turn flat transcript (persistent mode): text chunks, a Read call with a 2 KB result, usage, result. */
function generateTranscript(bytes) {
  const parts = [];
  let size = 0;
  const push = (message) => {
    const line = `${JSON.stringify(message)}\n`;
    parts.push(line);
    size += line.length;
  };
  push({
    type: 'system',
    subtype: 'init',
    session_id: 'bench_session',
    model: 'gpt-4.1-mini',
    cwd: '/work',
    permissionMode: 'default',
    tools: ['Read', 'Write', 'Edit', 'Bash'],
  });
  const fileBody = Array.from(
    { length: 40 },
    (_, i) => `${i + 1}\tconst value${i} = computeSomething(${i}); // a line of fixture code`,
  ).join('\n');
  for (let turn = 0; size < bytes; turn += 1) {
    for (let i = 0; i < 20; i += 1)
      push({
        type: 'text',
        id: `t${turn}_${i}`,
        content: `Chunk ${i} of turn ${turn}: streaming some assistant prose here. `,
      });
    push({ type: 'tool_use', id: `call_${turn}`, name: 'Read', input: { file_path: `src/file_${turn}.ts` } });
    push({ type: 'tool_result', tool_use_id: `call_${turn}`, content: fileBody, is_error: false });
    for (let i = 20; i < 30; i += 1)
      push({
        type: 'text',
        id: `t${turn}_${i}`,
        content: `Chunk ${i} of turn ${turn}: summarising what the file says.`,
      });
    push({ type: 'usage', usage: { input_tokens: 1200 + turn, output_tokens: 300 + turn } });
    push({
      type: 'result',
      is_error: false,
      subtype: 'success',
      session_id: 'bench_session',
      usage: { input_tokens: 1200 + turn, output_tokens: 300 + turn },
      duration_ms: 1234,
      num_turns: 1,
    });
    push({ type: 'message_stop' });
  }
  return Buffer.from(parts.join(''), 'utf8');
}

/** The baseline: what any reader minimally does — split into lines and JSON.parse each one. */
function bareLoop(buf) {
  let count = 0;
  for (const line of buf.toString('utf8').split('\n')) {
    if (line.length === 0) continue;
    JSON.parse(line);
    count += 1;
  }
  return count;
}

function best(fn) {
  let fastest = Infinity;
  let value;
  for (let i = 0; i < runs; i += 1) {
    const started = process.hrtime.bigint();
    value = fn();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    fastest = Math.min(fastest, ms);
  }
  return { ms: fastest, value };
}

const { validateStream } = await loadValidator();
const transcript = generateTranscript(targetMb * 1024 * 1024);
const mb = transcript.length / (1024 * 1024);

// Warm up both paths (JIT, ajv compilation) on a small slice first.
const warm = transcript.subarray(0, transcript.indexOf(0x0a, 2 * 1024 * 1024) + 1);
bareLoop(warm);
validateStream(warm, { keepEvents: false });

const bare = best(() => bareLoop(transcript));
const cli = best(() => validateStream(transcript, { keepEvents: false }));
const api = best(() => validateStream(transcript));
if (cli.value.findings.length > 0) {
  console.error('the generated transcript should conform, but:', cli.value.findings.slice(0, 3));
  process.exitCode = 1;
}

const rate = (ms) => (mb / (ms / 1000)).toFixed(1);
const ratio = (ms) => (bare.ms / ms).toFixed(2);
console.log(`transcript: ${mb.toFixed(1)} MB, ${cli.value.lines} lines (best of ${runs} runs)`);
console.log(`bare split + JSON.parse:            ${rate(bare.ms).padStart(7)} MB/s  (${bare.ms.toFixed(0)} ms)`);
console.log(
  `validate (as the CLI runs it):      ${rate(cli.ms).padStart(7)} MB/s  (${cli.ms.toFixed(0)} ms)  ratio ${ratio(cli.ms)}`,
);
console.log(
  `validate keeping canonical events:  ${rate(api.ms).padStart(7)} MB/s  (${api.ms.toFixed(0)} ms)  ratio ${ratio(api.ms)}`,
);
console.log(`goal: ratio >= 0.5 -> ${Number(ratio(cli.ms)) >= 0.5 ? 'met' : 'NOT met'}`);
