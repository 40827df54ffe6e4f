// `yume-conformance serve`: the mocked providers of one scenario on 127.0.0.1, for shim authors developing
// against the mock and for pointing real clients at it. Logs every request on stderr; Ctrl-C stops it.

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { type RecordedRequest, startMockServer } from '../mock/mock-server.js';
import { defaultTranscriptsDir } from '../mock/package-paths.js';
import { providerEnvironment } from '../mock/provider-environment.js';
import { formatProblem, loadScenario, ScenarioLoadError } from '../mock/scenario/scenario-loader.js';
import { MOCK_PROVIDER_IDS, type MockProviderId } from '../mock/scenario/scenario-types.js';
import { declaredToolMapper } from '../official-cli/map-tools.js';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { recordServeTraffic } from './serve-recorder.js';

interface ServeOptions {
  scenario: string;
  port: number;
  provider?: MockProviderId;
  seed?: number;
  transcripts?: string;
  gate?: boolean;
  mapTools?: boolean;
  cwd?: string;
  record?: string;
}

const ENDPOINTS: Record<MockProviderId, (url: string) => string> = {
  'openai-chat': (url) => `POST ${url}/v1/chat/completions`,
  'openai-responses': (url) => `POST ${url}/v1/responses`,
  gemini: (url) => `POST ${url}/v1beta/models/{model}:streamGenerateContent?alt=sse`,
  anthropic: (url) => `POST ${url}/v1/messages`,
};

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('expected a port number 0-65535 (0 = any free port)');
  return port;
}

function parseProvider(value: string): MockProviderId {
  if (!(MOCK_PROVIDER_IDS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${MOCK_PROVIDER_IDS.join(', ')}`);
  return value as MockProviderId;
}

function parseSeed(value: string): number {
  const seed = Number(value);
  if (!Number.isInteger(seed) || seed < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return seed;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the mocked providers of one scenario on 127.0.0.1 until Ctrl-C')
    .option('--scenario <id>', 'scenario id (a folder of transcripts/)', 'plain-text')
    .option('--port <n>', 'port to listen on (0 = any free port)', parsePort, 0)
    .option('--provider <id>', `only print this provider's settings (${MOCK_PROVIDER_IDS.join(', ')})`, parseProvider)
    .option('--seed <n>', 're-chunk every stream at offsets drawn from this seed', parseSeed)
    .option('--transcripts <dir>', "folder holding the scenarios (default: the package's transcripts/)")
    .option('--gate', 'withhold each stream after its first text chunk until Enter is pressed')
    .option(
      '--map-tools',
      "answer with the tools the request declares (an official CLI's read_file, exec_command, view, ...) when it lacks the scenario's names",
    )
    .option(
      '--cwd <dir>',
      "with --map-tools: the client's working directory, against which tools that take absolute paths (copilot's view, create, edit) get the script's paths, and where a Write's target is looked up",
    )
    .option(
      '--record <prefix>',
      'write every request (reduced to its shape) to PREFIX.requests.jsonl and every byte answered to PREFIX.provider.sse',
    )
    .action(async (options: ServeOptions) => {
      process.exitCode = await serve(options);
    });
}

/** Why the options cannot be carried out, or undefined. */
function usageProblem(options: ServeOptions): string | undefined {
  if (options.cwd === undefined) return undefined;
  if (options.mapTools !== true) return '--cwd only applies with --map-tools';
  if (!existsSync(options.cwd) || !statSync(options.cwd).isDirectory())
    return `--cwd ${options.cwd}: not a directory (give the folder the CLI works in)`;
  return undefined;
}

async function serve(options: ServeOptions): Promise<number> {
  const problem = usageProblem(options);
  if (problem) {
    process.stderr.write(`yume-conformance serve: ${problem}\n`);
    return EXIT_USAGE;
  }
  const root = options.transcripts ? path.resolve(options.transcripts) : defaultTranscriptsDir();
  let scenario: ReturnType<typeof loadScenario>;
  try {
    scenario = loadScenario(path.join(root, options.scenario));
  } catch (error) {
    if (!(error instanceof ScenarioLoadError)) throw error;
    process.stderr.write(
      `yume-conformance serve: cannot load scenario "${options.scenario}":\n${error.problems.map(formatProblem).join('\n')}\n`,
    );
    return EXIT_USAGE;
  }
  let server: Awaited<ReturnType<typeof startMockServer>>;
  try {
    server = await startMockServer({
      scenario,
      provider: options.provider,
      seed: options.seed,
      port: options.port,
      autoAdvance: true,
      gate: options.gate,
      ...(options.mapTools === true
        ? { mapTools: declaredToolMapper(options.cwd === undefined ? {} : { cwd: path.resolve(options.cwd) }) }
        : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE' ? `port ${options.port} is already in use (use --port 0 for any free port)` : String(error);
    process.stderr.write(`yume-conformance serve: ${reason}\n`);
    return EXIT_USAGE;
  }

  if (options.record) recordServeTraffic(server, options.record);
  printSettings(options, scenario, server);
  const openOnEnter = logRequests(options, server);

  await new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      log(`${signal}: stopping`);
      resolve();
    };
    const onInt = (): void => stop('SIGINT');
    const onTerm = (): void => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
  await server.close();
  if (options.gate) {
    process.stdin.off('data', openOnEnter);
    process.stdin.pause();
  }
  return EXIT_OK;
}

type MockServer = Awaited<ReturnType<typeof startMockServer>>;

const log = (line: string): void => void process.stderr.write(`[${new Date().toISOString().slice(11, 23)}] ${line}\n`);

/** One request as a log line: its number, method, path, provider, status, outcome and the turn it answered. */
function describeRequest(request: RecordedRequest): string {
  const answer =
    request.responseIndex !== undefined ? ` (turn ${request.turn + 1}, response ${request.responseIndex + 1})` : '';
  const missing = request.missingTools ? ` missing tools: ${request.missingTools.join(', ')}` : '';
  return `#${request.index + 1} ${request.method} ${request.path}${request.query} ${request.provider ?? '-'} -> ${request.status} ${request.outcome}${answer}${missing}`;
}

/** The endpoints and the environment a shim needs, on stdout. */
function printSettings(options: ServeOptions, scenario: ReturnType<typeof loadScenario>, server: MockServer): void {
  const providers = options.provider ? [options.provider] : [...MOCK_PROVIDER_IDS];
  const env = providerEnvironment(server.baseUrls, scenario.env?.unset ?? []);
  const out: string[] = [
    `yume-conformance mock providers: scenario "${scenario.id}" (${scenario.turns.length} turn${scenario.turns.length === 1 ? '' : 's'})${options.seed !== undefined ? `, re-chunk seed ${options.seed}` : ''}`,
    `listening on ${server.url} (Ctrl-C to stop)`,
    '',
    'Endpoints:',
    ...providers.map((id) => `  ${id.padEnd(17)} ${ENDPOINTS[id](server.url)}`),
    '',
    'Environment for a shim (POSIX shell):',
    ...Object.entries(env).map(([name, value]) => `  export ${name}=${value}`),
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

/** Logs every request on stderr; with --gate, Enter opens the gate. Returns the stdin listener to remove at the end. */
function logRequests(options: ServeOptions, server: MockServer): () => void {
  server.events.on('request', (request: RecordedRequest) => log(describeRequest(request)));
  server.events.on('first-text-sent', ({ index }: { index: number }) => {
    if (options.gate) log(`#${index + 1} first text sent; press Enter to open the gate`);
  });
  server.events.on('client-closed', (request: RecordedRequest) =>
    log(`#${request.index + 1} client closed the connection early`),
  );
  const openOnEnter = (): void => server.openGate();
  if (options.gate) process.stdin.on('data', openOnEnter);
  return openOnEnter;
}
