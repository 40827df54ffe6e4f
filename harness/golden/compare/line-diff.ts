// A small line diff (longest common subsequence) for readable golden updates: changed lines with their
// line numbers and a little context, like a unified diff.

export interface DiffLine {
  kind: ' ' | '-' | '+';
  text: string;
  /** Line number in the old text (for ' ' and '-') or the new one (for '+'). */
  line: number;
}

/** Every line of both texts, in order, marked kept, removed or added. */
export function diffLines(oldText: string, newText: string): DiffLine[] {
  const a = oldText === '' ? [] : oldText.replace(/\n$/, '').split('\n');
  const b = newText === '' ? [] : newText.replace(/\n$/, '').split('\n');
  // lengths[i][j]: LCS length of a[i..] and b[j..].
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: ' ', text: a[i]!, line: i + 1 });
      i += 1;
      j += 1;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) {
      out.push({ kind: '-', text: a[i]!, line: i + 1 });
      i += 1;
    } else {
      out.push({ kind: '+', text: b[j]!, line: j + 1 });
      j += 1;
    }
  }
  for (; i < a.length; i += 1) out.push({ kind: '-', text: a[i]!, line: i + 1 });
  for (; j < b.length; j += 1) out.push({ kind: '+', text: b[j]!, line: j + 1 });
  return out;
}

/** The changes with `context` unchanged lines around each, long lines shortened; '' when equal. */
export function formatDiff(oldText: string, newText: string, context = 1, width = 160): string {
  const lines = diffLines(oldText, newText);
  const changed = lines.map((line) => line.kind !== ' ');
  if (!changed.includes(true)) return '';
  const shown = lines.map((_, index) =>
    changed.slice(Math.max(0, index - context), index + context + 1).includes(true),
  );
  const out: string[] = [];
  let skipped = false;
  lines.forEach((line, index) => {
    if (!shown[index]) {
      if (!skipped) out.push('   …');
      skipped = true;
      return;
    }
    skipped = false;
    const text = line.text.length > width ? `${line.text.slice(0, width - 1)}…` : line.text;
    out.push(`${line.kind} ${String(line.line).padStart(4)} ${text}`);
  });
  return out.join('\n');
}
