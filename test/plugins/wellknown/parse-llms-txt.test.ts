import { readFileSync } from 'node:fs';
import path from 'node:path';
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

// llmstxt.org's format, as generators of valid files: an H1, an optional blockquote, optional prose, and zero or
// more H2 sections of `- [name](url): notes` items.
const words = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,20}[A-Za-z0-9]$/);
const url = fc
  .tuple(
    fc.constantFrom('https://docs.example/', '/'),
    fc.stringMatching(/^[a-z0-9-]{1,12}$/),
    fc.constantFrom('.md', '.txt', '.html'),
  )
  .map(([base, name, ext]) => `${base}${name}${ext}`);
const item = fc.tuple(words, url, fc.option(words, { nil: null }));
const section = fc.tuple(words, fc.array(item, { minLength: 1, maxLength: 4 }));
const llmsFile = fc.record({
  title: words,
  summary: fc.option(words, { nil: null }),
  prose: fc.option(words, { nil: null }),
  sections: fc.array(section, { maxLength: 4 }),
});
type LlmsFile = {
  title: string;
  summary: string | null;
  prose: string | null;
  sections: [string, [string, string, string | null][]][];
};
const renderLlms = (f: LlmsFile) =>
  [
    `# ${f.title}`,
    ...(f.summary ? ['', `> ${f.summary}`] : []),
    ...(f.prose ? ['', f.prose] : []),
    ...f.sections.flatMap(([title, items]) => [
      '',
      `## ${title}`,
      '',
      ...items.map(([name, u, notes]) => `- [${name}](${u})${notes ? `: ${notes}` : ''}`),
    ]),
    '',
  ].join('\n');

describe('parseLlmsTxt against the llmstxt.org format', () => {
  it('reads the example file of llmstxt.org verbatim', () => {
    // The llms.txt llmstxt.org publishes for itself (AnswerDotAI/llms-txt nbs/llms.txt), as in test/world/real.
    const example = readFileSync(path.join(import.meta.dirname, '../../world/real/llms-txt/llmstxt-org/llms.txt'));
    const p = parseLlmsTxt(example);
    expect([p.title, p.sections.map((s) => [s.title, s.items, s.linkItems]), p.errors]).toEqual([
      'llms.txt',
      [['Docs', 3, 3]],
      [],
    ]);
  });

  it('parses every file the format generates, with its title, summary, sections and links', () => {
    fc.assert(
      fc.property(llmsFile, (f) => {
        const p = parseLlmsTxt(bytes(renderLlms(f)));
        expect(p.errors).toEqual([]);
        expect([p.title, p.summary]).toEqual([f.title, f.summary]);
        expect(p.sections.map((s) => [s.title, s.items, s.linkItems])).toEqual(
          f.sections.map(([t, items]) => [t, items.length, items.length]),
        );
        expect(p.links.map((l) => [l.title, l.url, l.notes])).toEqual(
          f.sections.flatMap(([, items]) => items.map(([n, u, notes]) => [n, u, notes])),
        );
      }),
    );
  });

  // Each mutation breaks one part of the format; the error names it.
  const mutations: [string, (text: string) => string, string][] = [
    ['loses its H1', (t) => t.replace(/^# .*\n/, ''), 'missing_h1'],
    ['starts with text before the H1', (t) => 'Welcome\n\n' + t, 'content_before_h1'],
    ['has a second H1', (t) => t + '\n# Again\n', 'multiple_h1'],
    [
      'puts a heading between the H1 and the sections',
      (t) => t.replace(/^(# .*\n)/, '$1\n### Aside\n'),
      'heading_before_sections',
    ],
    ['lists an item without a link', (t) => t + '\n## More\n\n- plain words\n', 'list_item_without_link'],
    ['leaves a code fence open', (t) => t + '\n```\ncode\n', 'unclosed_code_fence'],
  ];
  it.each(mutations)('refuses a file that %s, naming it', (_name, mutate, code) => {
    fc.assert(
      fc.property(llmsFile, (f) => {
        expect(parseLlmsTxt(bytes(mutate(renderLlms(f)))).errors.map((e) => e.code)).toContain(code);
      }),
    );
  });
});
