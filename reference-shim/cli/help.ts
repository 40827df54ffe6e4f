import { SHIM_VERSION } from '../version.js';

export const HELP_TEXT = `yume-shim ${SHIM_VERSION} — a Type-A agent that prints Claude-compatible stream-json for Yume

Usage:
  yume-shim [start] --provider <p> [--model <m>] [--cwd <dir>] [--prompt <text>] [options]

Providers (--provider):
  openai      OpenAI Chat Completions or any compatible endpoint (models containing "codex" use the Responses API)
  codex       OpenAI Responses API
  gemini      Gemini streamGenerateContent (GEMINI_API_KEY / GOOGLE_API_KEY, else gcloud auth print-access-token)
  anthropic   Anthropic Messages (ANTHROPIC_API_KEY)
  gemini-cli, codex-cli, claude-cli, copilot-cli
              run the official gemini, codex, claude or copilot CLI (on PATH, signed in or configured) and
              translate what it prints
  copilot     the copilot-cli translator under its older name (the GitHub Copilot CLI now has a machine
              interface: copilot -p --output-format json)

Options:
  --model <name>               model (default depends on the provider)
  --cwd <dir>                  working directory; tools cannot leave it (default: current directory)
  --session-id <id>            id for a new session ([A-Za-z0-9_-]+)
  --prompt <text>              the prompt; without it (and without --input-format stream-json) stdin is read to EOF
  --resume <id>                continue ~/.yume/sessions/<provider>/<id>.json (an unknown id starts a session under it)
  --history-file <file>        JSON array of prior messages to start from
  --output-format stream-json  the only output format
  --input-format stream-json   persistent mode: read user / interrupt / set_permission_mode / tool_approval frames from stdin
  --api-base <url>             provider base URL (else OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL)
  --permission-mode <mode>     default | auto | deny | interactive
  --protocol-version <v>       echoed in the init line
  --dialect flat|claude        flat lines or Claude envelopes (also YUME_SHIM_DIALECT); default: Claude envelopes
                               when started as the app starts Claude Code (no start, --output-format stream-json
                               --verbose), else flat
  --max-turns <n>              most model calls per turn (default 50)
  --verbose                    log to stderr
  -h, --help                   this text
  --version                    print the version
`;
