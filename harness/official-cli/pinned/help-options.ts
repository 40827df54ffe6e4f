// Reads the options an official CLI accepts out of its own `--help` text. Each CLI prints help through
// its argument library, so there is one reader per library: clap (codex, copilot), yargs (gemini), commander
// (claude). The fakes accept exactly what these readers find in the pinned help, and the drift check
// compares what they find in a newer version's help with the pinned list.

/** How an option takes its value. */
export type OptionValue = 'none' | 'required' | 'optional' | 'variadic';

export interface HelpOption {
  /** Long name without the dashes (`output-format`); empty for an option with a short name only (copilot's `-C`). */
  long: string;
  /** One-letter short name, if any. */
  short?: string;
  /** Further long names (commander's `--allowedTools, --allowed-tools`). */
  aliases?: string[];
  value: OptionValue;
  /** The value's placeholder as the help prints it (`SANDBOX_MODE`, `format`). */
  valueName?: string;
  /** yargs' type tag (`string`, `boolean`, `array`). */
  type?: string;
  /** The values the help lists as allowed. */
  choices?: string[];
}

const quotedList = (text: string): string[] => [...text.matchAll(/"([^"]*)"/g)].map((match) => match[1]!);

/** How a clap value placeholder takes its value: `<x>`, `<x>...`, `[<x>]` (may be left out), `[<x>...]`. */
function clapValue(optional: boolean, many: boolean): OptionValue {
  if (many) return 'variadic';
  return optional ? 'optional' : 'required';
}

/**
 * clap's long help: `  -s, --sandbox <SANDBOX_MODE>` on its own line, the description and `[possible values: ...]`
 * below. Also its optional values (`-r, --resume [<value>]`, `--allow-tool [<tools>...]`) and options with a
 * short name only (`-C <directory>`: `long` is then empty).
 */
export function clapOptions(help: string): HelpOption[] {
  const options: HelpOption[] = [];
  let current: HelpOption | undefined;
  for (const line of help.split('\n')) {
    const flag =
      /^ {2,6}(?:-([A-Za-z0-9])(?:, --([A-Za-z0-9][\w-]*))?|--([A-Za-z0-9][\w-]*))(?: (\[)?<([^>]+)>(\.\.\.)?\]?)?\s*$/.exec(
        line,
      );
    if (flag) {
      current = {
        long: flag[2] ?? flag[3] ?? '',
        ...(flag[1] ? { short: flag[1] } : {}),
        value: flag[5] ? clapValue(flag[4] === '[', flag[6] !== undefined) : 'none',
        ...(flag[5] ? { valueName: flag[5] } : {}),
      };
      options.push(current);
      continue;
    }
    const possible = /\[possible values: ([^\]]+)\]/.exec(line);
    if (possible && current) current.choices = possible[1]!.split(',').map((value) => value.trim());
    if (/^\S/.test(line)) current = undefined; // a new section
  }
  return options;
}

/** clap's `Usage:` block (the lines an argument error repeats). */
export function clapUsage(help: string): string {
  const lines = help.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Usage: '));
  if (start < 0) return '';
  const block = [lines[start]!];
  for (const line of lines.slice(start + 1)) {
    if (!/^ {7}\S/.test(line)) break;
    block.push(line);
  }
  return block.join('\n');
}

/** yargs: one line per option, `  -m, --model   Model  [string]`, tags in brackets at the end. */
export function yargsOptions(help: string): HelpOption[] {
  const options: HelpOption[] = [];
  let inOptions = false;
  for (const line of help.split('\n')) {
    if (/^\S/.test(line)) {
      inOptions = line.startsWith('Options:');
      continue;
    }
    if (!inOptions) continue;
    const flag = /^ {2}(?:-([A-Za-z0-9]), | {4})--([A-Za-z0-9][\w-]*)(.*)$/.exec(line);
    if (!flag) continue;
    const rest = flag[3]!;
    const type = /\[(string|boolean|array|number|count)\]/.exec(rest)?.[1];
    const choices = /\[choices: ([^\]]+)\]/.exec(rest);
    options.push({
      long: flag[2]!,
      ...(flag[1] ? { short: flag[1] } : {}),
      value: type === 'boolean' || type === 'count' ? 'none' : type === 'array' ? 'variadic' : 'required',
      ...(type ? { type } : {}),
      ...(choices ? { choices: quotedList(choices[1]!) } : {}),
    });
  }
  return options;
}

/**
 * commander: `  -r, --resume [value]   desc` (an option line starts with exactly two spaces and a dash; longer
 * indents continue the description). `<x>` requires a value, `[x]` takes one if given, `...` takes many.
 */
export function commanderOptions(help: string): HelpOption[] {
  const entries: { flags: string; description: string }[] = [];
  let inOptions = false;
  for (const line of help.split('\n')) {
    if (/^\S/.test(line)) {
      inOptions = line.startsWith('Options:');
      continue;
    }
    if (!inOptions) continue;
    const option = /^ {2}(-.*?)(?: {2,}(.*))?$/.exec(line);
    if (option) entries.push({ flags: option[1]!.trim(), description: option[2] ?? '' });
    else if (entries.length > 0) entries.at(-1)!.description += ` ${line.trim()}`;
  }
  return entries.map(({ flags, description }) => {
    const names = [...flags.matchAll(/(?:^|, )(-{1,2})([A-Za-z0-9][\w-]*)/g)];
    const long = names.filter((name) => name[1] === '--').map((name) => name[2]!);
    const short = names.find((name) => name[1] === '-')?.[2];
    const placeholder = /([<[])([^>\]]+)[>\]]\s*$/.exec(flags);
    const variadic = placeholder?.[2]?.endsWith('...') ?? false;
    const value: OptionValue = !placeholder
      ? 'none'
      : variadic
        ? 'variadic'
        : placeholder[1] === '<'
          ? 'required'
          : 'optional';
    const choices = /\(choices: ((?:"[^"]*"(?:, )?)+)/.exec(description);
    return {
      long: long[0]!,
      ...(short ? { short } : {}),
      ...(long.length > 1 ? { aliases: long.slice(1) } : {}),
      value,
      ...(placeholder ? { valueName: placeholder[2]!.replace(/\.\.\.$/, '') } : {}),
      ...(choices ? { choices: quotedList(choices[1]!) } : {}),
    };
  });
}
