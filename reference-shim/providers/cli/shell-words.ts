// codex prints the commands it ran wrapped in its shell (`/bin/bash -lc 'cat hello.txt'`, or PowerShell on
// Windows). The app shows a Bash call's `command`, so the translator shows the command the model asked for.

/** Undoes POSIX shell quoting of one word made of '...', "..." and bare parts; undefined if it is several words. */
export function unquoteShellWord(text: string): string | undefined {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    if (character === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) return undefined;
      out += text.slice(index + 1, end);
      index = end + 1;
    } else if (character === '"') {
      index += 1;
      for (;;) {
        if (index >= text.length) return undefined;
        const inner = text[index]!;
        if (inner === '"') break;
        if (inner === '\\' && index + 1 < text.length && '"\\$`\n'.includes(text[index + 1]!)) {
          out += text[index + 1];
          index += 2;
          continue;
        }
        out += inner;
        index += 1;
      }
      index += 1;
    } else if (character === '\\' && index + 1 < text.length) {
      out += text[index + 1];
      index += 2;
    } else if (/\s/.test(character)) {
      return undefined;
    } else {
      out += character;
      index += 1;
    }
  }
  return out;
}

const POSIX_WRAPPER = /^(?:\S*\/)?(?:ba|z|da)?sh\s+-l?c\s+([\s\S]+)$/;
const POWERSHELL_WRAPPER =
  /^(?:"[^"]*powershell(?:\.exe)?"|\S*powershell(?:\.exe)?|pwsh(?:\.exe)?)\s+(?:-NoProfile\s+)?-Command\s+([\s\S]+)$/i;

/** The command inside codex's shell wrapper, or the text unchanged when it is not wrapped. */
export function unwrapShellCommand(command: string): string {
  const trimmed = command.trim();
  const posix = POSIX_WRAPPER.exec(trimmed);
  if (posix) return unquoteShellWord(posix[1]!.trim()) ?? posix[1]!.trim();
  const powershell = POWERSHELL_WRAPPER.exec(trimmed);
  if (powershell) {
    const inner = powershell[1]!.trim();
    return inner.startsWith('"') && inner.endsWith('"') ? inner.slice(1, -1) : inner;
  }
  return trimmed;
}
