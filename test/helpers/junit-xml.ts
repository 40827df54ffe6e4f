// A strict little XML reader, enough to prove a JUnit report is well-formed and to read its test cases.
// It rejects what CI parsers reject: unclosed or crossed tags, bad entities, a raw "<" or "&" in text or an
// attribute, duplicate attributes, several roots, control characters XML 1.0 cannot hold. (No XML library is
// a dependency of this package.) The one XML reader of the tests: reporter, CLI and package tests all use it.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export class XmlError extends Error {}

const NAME = /^[A-Za-z_:][\w:.-]*/;
const ENTITY = /^&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);/;

function lineOf(xml: string, index: number): number {
  return xml.slice(0, index).split('\n').length;
}

function checkCharacterData(xml: string, start: number, text: string): void {
  for (let index = text.indexOf('&'); index !== -1; index = text.indexOf('&', index + 1)) {
    if (!ENTITY.test(text.slice(index)))
      throw new XmlError(`line ${lineOf(xml, start + index)}: "&" that is not an entity`);
  }
  if (text.includes('<')) throw new XmlError(`line ${lineOf(xml, start)}: raw "<" in character data`);
}

function decode(text: string): string {
  return text
    .replace(/&#x([0-9A-Fa-f]+);/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

export function parseXml(xml: string): XmlElement {
  const control = FORBIDDEN_CONTROL.exec(xml);
  if (control)
    throw new XmlError(
      `line ${lineOf(xml, control.index)}: control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  let index = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const fail = (message: string): never => {
    throw new XmlError(`line ${lineOf(xml, index)}: ${message}`);
  };

  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end === -1) fail('unterminated XML declaration');
    index = end + 2;
  }
  while (index < xml.length) {
    const next = xml.indexOf('<', index);
    const textEnd = next === -1 ? xml.length : next;
    const text = xml.slice(index, textEnd);
    if (text.length > 0) {
      checkCharacterData(xml, index, text);
      if (stack.length === 0 && text.trim() !== '') fail('text outside the root element');
      if (stack.length > 0) stack[stack.length - 1]!.text += decode(text);
    }
    if (next === -1) break;
    index = next;
    if (xml.startsWith('<!--', index)) {
      const end = xml.indexOf('-->', index);
      if (end === -1) fail('unterminated comment');
      index = end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', index)) {
      const end = xml.indexOf(']]>', index);
      if (end === -1) fail('unterminated CDATA section');
      if (stack.length === 0) fail('CDATA outside the root element');
      stack[stack.length - 1]!.text += xml.slice(index + 9, end);
      index = end + 3;
      continue;
    }
    if (xml.startsWith('</', index)) {
      const match = NAME.exec(xml.slice(index + 2));
      if (!match) fail('closing tag without a name');
      const name = match![0];
      const close = xml.indexOf('>', index);
      if (close === -1 || xml.slice(index + 2 + name.length, close).trim() !== '')
        fail(`malformed closing tag </${name}`);
      const open = stack.pop();
      if (!open) fail(`closing tag </${name}> without an opening tag`);
      if (open!.name !== name) fail(`</${name}> closes <${open!.name}>`);
      index = close + 1;
      continue;
    }
    // An opening or self-closing tag.
    const match = NAME.exec(xml.slice(index + 1));
    if (!match) fail('"<" that does not start a tag');
    const element: XmlElement = { name: match![0], attributes: {}, children: [], text: '' };
    index += 1 + element.name.length;
    for (;;) {
      const whitespace = /^\s*/.exec(xml.slice(index))![0];
      index += whitespace.length;
      if (xml.startsWith('/>', index) || xml.startsWith('>', index)) break;
      if (whitespace.length === 0) fail(`attributes of <${element.name}> must be separated by whitespace`);
      const attribute = /^([A-Za-z_:][\w:.-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(xml.slice(index));
      if (!attribute) fail(`malformed attribute in <${element.name}>`);
      const [whole, name, , doubleQuoted, singleQuoted] = attribute!;
      const value = doubleQuoted ?? singleQuoted ?? '';
      checkCharacterData(xml, index, value);
      if (name! in element.attributes) fail(`duplicate attribute ${name} in <${element.name}>`);
      element.attributes[name!] = decode(value);
      index += whole.length;
    }
    if (stack.length === 0) {
      if (root) fail('a second root element');
      root = element;
    } else {
      stack[stack.length - 1]!.children.push(element);
    }
    if (xml.startsWith('/>', index)) {
      index += 2;
    } else {
      index += 1;
      stack.push(element);
    }
  }
  if (stack.length > 0) throw new XmlError(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (!root) throw new XmlError('no root element');
  return root;
}

export interface JUnitCase {
  name: string;
  classname: string;
  failed: boolean;
  skipped: boolean;
}

/** Reads a JUnit report (root `testsuites` or `testsuite`) into its test cases. */
export function parseJUnit(xml: string): { cases: JUnitCase[]; root: XmlElement } {
  const root = parseXml(xml);
  if (root.name !== 'testsuites' && root.name !== 'testsuite') {
    throw new XmlError(`the root element is <${root.name}>, not <testsuites> or <testsuite>`);
  }
  const suites = root.name === 'testsuite' ? [root] : root.children.filter((child) => child.name === 'testsuite');
  if (suites.length === 0) throw new XmlError('no <testsuite> element');
  const cases = suites.flatMap((suite) =>
    suite.children
      .filter((child) => child.name === 'testcase')
      .map((testcase) => ({
        name: testcase.attributes.name ?? '',
        classname: testcase.attributes.classname ?? '',
        failed: testcase.children.some((child) => child.name === 'failure' || child.name === 'error'),
        skipped: testcase.children.some((child) => child.name === 'skipped'),
      })),
  );
  return { cases, root };
}

/** Throws unless `xml` is a well-formed document that opens with the UTF-8 declaration our reporters write. */
export function assertWellFormedXml(xml: string): XmlElement {
  if (!xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')) {
    throw new XmlError('the document does not open with <?xml version="1.0" encoding="UTF-8"?> and a newline');
  }
  return parseXml(xml);
}
