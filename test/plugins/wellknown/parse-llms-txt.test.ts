import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { firstHeading, parseLlmsTxt } from '../../../plugins/wellknown/parse-llms-txt.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

const GOOD = `# Good Site

> Good Site sells well-tested widgets.

Some prose about the site, without headings.

## Docs

- [Quick start](https://good.test/docs/start.md): how to begin
- [API](/docs/api.md)

## Optional

- [Changelog](https://good.test/changelog.txt)
`;

describe('parseLlmsTxt', () => {
  it('outlines a file that follows llmstxt.org', () => {
    const p = parseLlmsTxt(bytes(GOOD));
    expect(p.title).toBe('Good Site');
    expect(p.h1Count).toBe(1);
    expect(p.startsWithH1).toBe(true);
    expect(p.summary).toBe('Good Site sells well-tested widgets.');
    expect(p.sections).toEqual([
      { title: 'Docs', line: 7, items: 2, linkItems: 2 },
      { title: 'Optional', line: 12, items: 1, linkItems: 1 },
    ]);
    expect(p.links.map((l) => [l.section, l.title, l.url, l.notes, l.absolute])).toEqual([
      ['Docs', 'Quick start', 'https://good.test/docs/start.md', 'how to begin', true],
      ['Docs', 'API', '/docs/api.md', null, false],
      ['Optional', 'Changelog', 'https://good.test/changelog.txt', null, true],
    ]);
    expect(p.errors).toEqual([]);
    expect(p.characters).toBe([...GOOD].length);
  });

  it('reports a missing H1 and list items without links', () => {
    const p = parseLlmsTxt(bytes('Intro text\n\n## Links\n\n- just words\n- [ok](https://x.test/a.md)\n'));
    expect(p.title).toBeNull();
    expect(p.startsWithH1).toBe(false);
    expect(p.errors).toEqual([
      { line: 1, code: 'missing_h1' },
      { line: 5, code: 'list_item_without_link' },
    ]);
  });

  it('reports content before the H1, a second H1 and headings before the first section', () => {
    const p = parseLlmsTxt(bytes('intro\n# Title\n### Deep\n# Again\n## Section\n'));
    expect(p.startsWithH1).toBe(false);
    expect(p.h1Count).toBe(2);
    expect(p.errors.map((e) => [e.line, e.code])).toEqual([
      [2, 'content_before_h1'],
      [3, 'heading_before_sections'],
      [4, 'multiple_h1'],
    ]);
  });

  it('ignores headings and links inside fenced code, and reports an unclosed fence', () => {
    const p = parseLlmsTxt(bytes('# T\n```\n# not a title\n[x](y)\n```\n## S\n~~~\n- [a](b)\n'));
    expect(p.h1Count).toBe(1);
    expect(p.links).toEqual([]);
    expect(p.errors).toEqual([{ line: 7, code: 'unclosed_code_fence' }]);
  });

  it('skips images and reads links in prose', () => {
    const p = parseLlmsTxt(bytes('# T\n\nSee ![logo](/l.png) and [docs](https://x.test/d).\n'));
    expect(p.links.map((l) => l.url)).toEqual(['https://x.test/d']);
    expect(p.links[0]!.section).toBeNull();
  });

  it('takes a multi-line blockquote as the summary', () => {
    expect(parseLlmsTxt(bytes('# T\n> one\n> two\n\n## S\n')).summary).toBe('one two');
    expect(parseLlmsTxt(bytes('# T\n\n## S\n> late quote\n')).summary).toBeNull();
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.string({ maxLength: 800 }), (s) => void parseLlmsTxt(bytes(s))));
  });
});

describe('firstHeading', () => {
  it('finds the first heading outside code', () => {
    expect(firstHeading(bytes('\n```\n# code\n```\n## Full corpus\n# Later\n'))).toEqual({
      text: 'Full corpus',
      level: 2,
    });
    expect(firstHeading(bytes('no headings here'))).toBeNull();
  });
});
