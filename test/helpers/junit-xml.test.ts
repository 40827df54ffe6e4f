import { describe, expect, it } from 'vitest';
import { assertWellFormedXml, parseJUnit, parseXml, XmlError } from './junit-xml.js';

const valid = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="yume-conformance" tests="2" failures="1">
  <!-- one suite per provider -->
  <testsuite name="openai-chat" tests="2">
    <testcase classname="openai-chat" name="plain-text &amp; more"/>
    <testcase classname="openai-chat" name='single-tool'>
      <failure message="tool.result-pairs-use: &lt;call_9&gt;"><![CDATA[line 3: <raw> & unescaped]]></failure>
    </testcase>
  </testsuite>
</testsuites>
`;

describe('the XML reader the reporter, CLI and package tests share', () => {
  it('reads a well-formed report with its cases, entities, comments and CDATA', () => {
    const { cases, root } = parseJUnit(valid);
    expect(root.attributes).toMatchObject({ name: 'yume-conformance', tests: '2', failures: '1' });
    expect(cases).toEqual([
      { name: 'plain-text & more', classname: 'openai-chat', failed: false, skipped: false },
      { name: 'single-tool', classname: 'openai-chat', failed: true, skipped: false },
    ]);
    const failure = root.children[0]!.children[1]!.children[0]!;
    expect(failure.attributes.message).toBe('tool.result-pairs-use: <call_9>');
    expect(failure.text).toBe('line 3: <raw> & unescaped');
  });

  it.each([
    ['an unclosed element', '<testsuites><testsuite name="a"></testsuites>', '</testsuites> closes <testsuite>'],
    ['an element never closed', '<testsuites><testsuite name="a">', '<testsuite> is never closed'],
    ['a bare ampersand', '<testsuites><testsuite name="a & b"/></testsuites>', '"&" that is not an entity'],
    ['a raw "<" in an attribute', '<testsuites><testsuite name="<a"/></testsuites>', 'raw "<" in character data'],
    ['an unquoted attribute', '<testsuites><testsuite name=a/></testsuites>', 'malformed attribute in <testsuite>'],
    ['a duplicate attribute', '<testsuites><testsuite name="a" name="b"/></testsuites>', 'duplicate attribute name'],
    ['two roots', '<testsuites/><testsuites/>', 'a second root element'],
    ['text outside the root', 'hello<testsuites/>', 'text outside the root element'],
    ['an empty document', '', 'no root element'],
    ['a control character XML cannot hold', '<testsuites name="a\u0001"/>', 'control character U+0001'],
  ])('rejects %s', (_, xml, message) => {
    expect(() => parseXml(xml)).toThrow(XmlError);
    expect(() => parseXml(xml)).toThrow(message);
  });

  it('rejects well-formed XML that is not JUnit', () => {
    expect(() => parseJUnit('<html><body/></html>')).toThrow(
      'the root element is <html>, not <testsuites> or <testsuite>',
    );
    expect(() => parseJUnit('<testsuites></testsuites>')).toThrow('no <testsuite> element');
  });

  it('asserts the declaration our reporters write before the document', () => {
    expect(assertWellFormedXml(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites/>`).name).toBe('testsuites');
    expect(() => assertWellFormedXml('<testsuites/>')).toThrow('does not open with <?xml');
  });
});
