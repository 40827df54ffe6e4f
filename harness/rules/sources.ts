// A rule's `source` names where a shim author reads why the rule exists: sections of docs/protocol.md
// (`docs/protocol.md#r3-tool-calls`) or public documents (`https://...`), separated by ", ".

export const PROTOCOL_DOC = 'docs/protocol.md';

/** The references of one `source` string, in order. */
export function sourceReferences(source: string): string[] {
  return source
    .split(',')
    .map((reference) => reference.trim())
    .filter(Boolean);
}

/** The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Anchor → heading text of every `##`/`###` heading of a Markdown document (code blocks skipped). */
export function documentSections(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  let inCode = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (line.startsWith('```')) inCode = !inCode;
    const heading = inCode ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) sections.set(headingAnchor(heading[1]!), heading[1]!);
  }
  return sections;
}

/**
 * Why a reference does not resolve, or undefined when it does: it must be a section of docs/protocol.md that
 * exists in `sections` (documentSections of that file) or an https URL.
 */
export function unresolvedReason(reference: string, sections: ReadonlyMap<string, string>): string | undefined {
  if (/^https:\/\/[^\s/]+\.[^\s/]+\S*$/.test(reference)) return undefined;
  const prefix = `${PROTOCOL_DOC}#`;
  if (!reference.startsWith(prefix))
    return `"${reference}" is neither ${prefix}<section> nor an https URL (write e.g. ${prefix}r3-tool-calls)`;
  const anchor = reference.slice(prefix.length);
  if (!sections.has(anchor)) return `${PROTOCOL_DOC} has no section with the anchor #${anchor}`;
  return undefined;
}

/** A short label for a reference: `R3` for a numbered ruling, the heading text for other sections, the host for a URL. */
export function referenceLabel(reference: string, sections: ReadonlyMap<string, string>): string {
  if (reference.startsWith('https://')) return new URL(reference).host;
  const anchor = reference.slice(reference.indexOf('#') + 1);
  const heading = sections.get(anchor);
  if (!heading) return anchor;
  return /^R\d+\b/.exec(heading)?.[0] ?? heading;
}
