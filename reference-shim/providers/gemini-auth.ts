// Gemini credentials: an API key from GEMINI_API_KEY / GOOGLE_API_KEY, else an OAuth access token from
// `gcloud auth print-access-token`, so a user need not store an API key in Yume.
import type { SecretRedactor } from '../output/redact.js';
import { abortSignalFor, type InterruptSignal } from '../tools/interrupt.js';
import { ProviderError } from './provider.js';

const GCLOUD_TIMEOUT_MS = 15_000;

export interface GeminiCredentials {
  headers(signal: InterruptSignal): Promise<Record<string, string>>;
}

export class GeminiAuth implements GeminiCredentials {
  private token: Promise<string> | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly redactor: SecretRedactor,
  ) {}

  async headers(signal: InterruptSignal): Promise<Record<string, string>> {
    const key = this.env.GEMINI_API_KEY || this.env.GOOGLE_API_KEY;
    if (key) return { 'x-goog-api-key': key };
    this.token ??= printAccessToken(this.env, signal);
    try {
      const token = await this.token;
      this.redactor.add(token);
      return { authorization: `Bearer ${token}` };
    } catch (error) {
      this.token = undefined;
      throw error;
    }
  }
}

/** Runs gcloud with an argv array (no shell) and a timeout; `.cmd` on Windows goes through cmd.exe. */
async function printAccessToken(env: NodeJS.ProcessEnv, signal: InterruptSignal): Promise<string> {
  const { execFile } = await import('node:child_process');
  const windows = process.platform === 'win32';
  const file = windows ? (env.ComSpec ?? 'cmd.exe') : 'gcloud';
  const args = windows
    ? ['/d', '/s', '/c', 'gcloud.cmd', 'auth', 'print-access-token']
    : ['auth', 'print-access-token'];
  const abort = abortSignalFor(signal);
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        env,
        timeout: GCLOUD_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        signal: abort.signal,
        windowsHide: true,
        maxBuffer: 1 << 20,
      },
      (error, stdout, stderr) => {
        abort.release();
        if (signal.aborted) return reject(new ProviderError('aborted', 'request aborted'));
        const token = String(stdout).trim().split(/\r?\n/).pop() ?? '';
        if (!error && token) return resolve(token);
        const missing = (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
        const reason = missing
          ? 'gcloud is not installed or not on PATH'
          : `gcloud auth print-access-token failed: ${String(stderr).trim().split('\n').pop() || error?.message || 'no token printed'}`;
        reject(
          new ProviderError(
            'auth',
            `No Gemini credentials: set GEMINI_API_KEY (or GOOGLE_API_KEY), or log in with \`gcloud auth login\` (${reason}).`,
          ),
        );
      },
    );
  });
}
