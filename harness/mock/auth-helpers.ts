// Fake `gcloud` and `gh` put first on the shim's PATH (D2): they print the dummy tokens a shim may use to
// authenticate (the gcloud-auth scenario unsets GEMINI_API_KEY and GOOGLE_API_KEY).
import { writeCommandShim } from '../process/command-shims.js';
import { DUMMY_CREDENTIALS, type DummyCredentials } from './credentials.js';

export interface AuthHelpers {
  dir: string;
  commands: { gcloud: string; gh: string };
  tokens: { gcloud: string; gh: string };
}

export async function writeAuthHelpers(
  dir: string,
  credentials: DummyCredentials = DUMMY_CREDENTIALS,
): Promise<AuthHelpers> {
  const gcloud = await writeCommandShim(dir, 'gcloud', {
    kind: 'print',
    stdout: credentials.gcloudAccessToken,
    whenArgs: ['auth', 'print-access-token'],
    usage: 'gcloud (yume-conformance fake): only `gcloud auth print-access-token` is available',
  });
  const gh = await writeCommandShim(dir, 'gh', {
    kind: 'print',
    stdout: credentials.ghToken,
    whenArgs: ['auth', 'token'],
    usage: 'gh (yume-conformance fake): only `gh auth token` is available',
  });
  return {
    dir,
    commands: { gcloud: gcloud.posix, gh: gh.posix },
    tokens: { gcloud: credentials.gcloudAccessToken, gh: credentials.ghToken },
  };
}
