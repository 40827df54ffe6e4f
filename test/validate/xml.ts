// A small XML well-formedness check for the JUnit reporter's output (no XML parser among the dependencies):
// one root, balanced tags, quoted attributes, only the five predefined entities, no raw control characters.
import { expect } from 'vitest';

export function assertWellFormedXml(xml: string): void {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  const body = xml.slice(xml.indexOf('?>') + 2);
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const m of body.matchAll(token)) {
    if (m[6]) throw new Error(`stray "<" at ${m.index}`);
    if (m[5] !== undefined) {
      for (const amp of m[5].matchAll(/&([^;]*);?/g)) expect(['amp', 'lt', 'gt', 'quot', 'apos']).toContain(amp[1]);
      if (m[5].trim() !== '') expect(stack.length).toBeGreaterThan(0);
      continue;
    }
    for (const amp of (m[3] ?? '').matchAll(/&([^;]*);?/g))
      expect(['amp', 'lt', 'gt', 'quot', 'apos']).toContain(amp[1]);
    if (m[1] === '/') expect(stack.pop()).toBe(m[2]);
    else if (m[4] !== '/') {
      if (stack.length === 0) roots += 1;
      stack.push(m[2]!);
    } else if (stack.length === 0) roots += 1;
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
}
