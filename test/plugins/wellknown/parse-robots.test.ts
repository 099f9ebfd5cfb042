import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseRobots, ROBOTS_PARSE_LIMIT_BYTES } from '../../../plugins/wellknown/parse-robots.ts';
import { decide, normalisePath, patternMatches } from '../../../plugins/wellknown/robots-access.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const allowed = (robots: string, token: string, path: string) =>
  decide(parseRobots(bytes(robots)), token, path).decision;

// RFC 9309 section 5.1.
const SIMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF`;

describe('parseRobots', () => {
  it('reads the groups of the RFC 9309 simple example', () => {
    const p = parseRobots(bytes(SIMPLE));
    expect(p.groups.map((g) => g.userAgents)).toEqual([['*'], ['foobot'], ['barbot', 'bazbot'], ['quxbot']]);
    expect(p.groups[0]!.rules.map((r) => [r.kind, r.pattern])).toEqual([
      ['disallow', '*.gif$'],
      ['disallow', '/example/'],
      ['allow', '/publications/'],
    ]);
    // The trailing "EOF" has no separator.
    expect(p.errors).toEqual([{ line: 17, code: 'missing_separator', production: 'rule', value: 'EOF' }]);
  });

  it('does not end a group at blank lines, comments or sitemap records', () => {
    const p = parseRobots(
      bytes('User-agent: a\n\n# note\nSitemap: https://x.test/s.xml\nUser-agent: b\nDisallow: /p\n'),
    );
    expect(p.groups.map((g) => g.userAgents)).toEqual([['a', 'b']]);
    expect(p.sitemaps).toEqual(['https://x.test/s.xml']);
    expect(p.sitemapLines).toEqual([4]);
  });

  it('starts a new group at a user-agent line after rules', () => {
    const p = parseRobots(bytes('User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n'));
    expect(p.groups.map((g) => [g.userAgents, g.rules.length])).toEqual([
      [['a'], 1],
      [['b'], 1],
    ]);
  });

  it('lower-cases product tokens and keys, strips comments and the BOM, accepts CR and CRLF', () => {
    const p = parseRobots(
      bytes('\ufeffUSER-AGENT: GPTBot # openai\r\nDISALLOW: /private # secret\rAllow: /private/ok\n'),
    );
    expect(p.bom).toBe(true);
    expect(p.groups[0]!.userAgents).toEqual(['gptbot']);
    expect(p.groups[0]!.rules.map((r) => r.pattern)).toEqual(['/private', '/private/ok']);
    expect(p.lines).toBe(3);
  });

  it('reports rules before any group, bad tokens, bad paths and bad crawl delays with their lines', () => {
    const p = parseRobots(bytes('Disallow: /a\nUser-agent: Googlebot/2.1\nDisallow: private\nCrawl-delay: soon\n'));
    expect(p.errors).toEqual([
      { line: 1, code: 'rule_outside_group', production: 'group', value: 'Disallow: /a' },
      { line: 2, code: 'invalid_user_agent', production: 'product-token', value: 'User-agent: Googlebot/2.1' },
      { line: 3, code: 'invalid_path', production: 'path-pattern', value: 'Disallow: private' },
      { line: 4, code: 'invalid_crawl_delay', production: 'crawl-delay', value: 'Crawl-delay: soon' },
    ]);
    // An invalid value still names the token it starts with.
    expect(p.groups[0]!.userAgents).toEqual(['googlebot']);
  });

  it("reads a two-word line without its colon as Google's parser does, and reports it", () => {
    const p = parseRobots(bytes('User-agent *\nDisallow /tmp\nAllow /tmp/open # a comment\n'));
    expect(p.groups.map((g) => g.userAgents)).toEqual([['*']]);
    expect(p.groups[0]!.rules.map((r) => [r.kind, r.pattern])).toEqual([
      ['disallow', '/tmp'],
      ['allow', '/tmp/open'],
    ]);
    expect(p.errors.map((e) => [e.line, e.code, e.production])).toEqual([
      [1, 'whitespace_separator', 'rule'],
      [2, 'whitespace_separator', 'rule'],
      [3, 'whitespace_separator', 'rule'],
    ]);
    expect(decide(p, 'anybot', '/tmp/x').decision).toBe('disallow');
  });

  it('drops a line without a colon that is not two words, as every crawler does', () => {
    const p = parseRobots(bytes('User-agent: *\nDisallow /a /b\nDisallow\n'));
    expect(p.groups[0]!.rules).toEqual([]);
    expect(p.errors.map((e) => [e.line, e.code])).toEqual([
      [2, 'missing_separator'],
      [3, 'missing_separator'],
    ]);
  });

  it("reads the misspelt keys Google's parser accepts as the keys they miss, and reports them", () => {
    const robots =
      'Useragent: a\nUser agent: b\nDisalow: /1\nDissallow: /2\nDissalow: /3\nDiasllow: /4\nDisallaw: /5\n';
    const p = parseRobots(bytes(`${robots}Site-map: https://x.test/s.xml\nAlow: /6\n`));
    expect(p.groups.map((g) => g.userAgents)).toEqual([['a', 'b']]);
    expect(p.groups[0]!.rules.map((r) => r.pattern)).toEqual(['/1', '/2', '/3', '/4', '/5']);
    expect(p.sitemaps).toEqual(['https://x.test/s.xml']);
    expect(p.errors.map((e) => e.code)).toEqual(Array(8).fill('misspelt_key'));
    // Google knows no misspelling of Allow: the line stays an unknown record.
    expect(p.unknownKeys).toEqual(['alow']);
  });

  it('counts unknown records without treating them as errors', () => {
    const p = parseRobots(bytes('User-agent: *\nHost: example.test\nClean-param: ref /\nDisallow:\n'));
    expect(p.unknownLines).toBe(2);
    expect(p.unknownKeys).toEqual(['clean-param', 'host']);
    expect(p.errors).toEqual([]);
  });

  it('keeps crawl-delay, content signals, content usage and licenses with their group', () => {
    const p = parseRobots(
      bytes(
        'Content-Signal: search=yes\nUser-agent: *\nCrawl-delay: 2.5\nContent-Signal: ai-train=no\nContent-Usage: train-ai=n\nLicense: https://x.test/license.xml\nAllow: /\n',
      ),
    );
    expect(p.groups[0]!.crawlDelay).toBe(2.5);
    expect(p.contentSignals).toEqual([
      { line: 1, group: null, value: 'search=yes' },
      { line: 4, group: 0, value: 'ai-train=no' },
    ]);
    expect(p.contentUsage).toEqual([{ line: 5, group: 0, value: 'train-ai=n' }]);
    expect(p.licenses).toEqual(['https://x.test/license.xml']);
    expect(p.groups[0]!.rules).toHaveLength(1);
  });

  it('reads only the first 500 KiB and drops the line the limit cuts', () => {
    const head = 'User-agent: *\nDisallow: /a\n';
    const filler = '#'.repeat(ROBOTS_PARSE_LIMIT_BYTES - head.length - 1) + '\n';
    const p = parseRobots(bytes(head + filler + 'Disallow: /beyond\n'));
    expect(p.groups[0]!.rules.map((r) => r.pattern)).toEqual(['/a']);
    expect(p.utf8Valid).toBe(true);
  });

  it('notes invalid UTF-8 and still parses', () => {
    const p = parseRobots(new Uint8Array([...bytes('User-agent: *\nDisallow: /'), 0xff, 0x0a]));
    expect(p.utf8Valid).toBe(false);
    expect(p.groups).toHaveLength(1);
  });

  it('never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (b) => {
        const p = parseRobots(b);
        expect(p.lines).toBeGreaterThanOrEqual(0);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), fc.string({ maxLength: 40 }), (text, path) => {
        decide(parseRobots(bytes(text)), 'testbot', '/' + path);
      }),
    );
  });
});

// RFC 9309 section 2.2 ABNF, as generators of valid files.
const identifier = fc.stringMatching(/^[A-Za-z_-]{1,20}$/);
const productToken = fc.oneof(identifier, fc.constant('*'));
const ws = fc.constantFrom('', ' ', '\t', '  ');
const pathPattern = fc.stringMatching(/^[A-Za-z0-9._~%*$/-]{0,30}$/).map((rest) => '/' + rest.replace(/\$(?=.)/g, ''));
const keyCase = (key: string) => fc.constantFrom(key, key.toUpperCase(), key[0]!.toUpperCase() + key.slice(1));
const startGroupLine = fc
  .tuple(ws, keyCase('user-agent'), ws, ws, productToken)
  .map(([a, k, b, c, t]) => ({ line: `${a}${k}${b}:${c}${t}`, token: t.toLowerCase() }));
const ruleLine = fc
  .tuple(ws, fc.constantFrom('allow', 'disallow'), ws, ws, fc.oneof(pathPattern, fc.constant('')))
  .map(([a, k, b, c, p]) => ({ line: `${a}${k}${b}:${c}${p}`, kind: k, pattern: p }));
const group = fc.tuple(
  fc.array(startGroupLine, { minLength: 1, maxLength: 3 }),
  fc.array(ruleLine, { minLength: 1, maxLength: 4 }),
);
const robotsFile = fc.array(group, { minLength: 1, maxLength: 4 });

const render = (groups: [{ line: string }[], { line: string }[]][]) =>
  groups.map(([agents, rules]) => [...agents, ...rules].map((l) => l.line).join('\n')).join('\n\n') + '\n';

describe('parseRobots against the RFC 9309 grammar', () => {
  it('parses every file the ABNF generates, with its groups, tokens and rules', () => {
    fc.assert(
      fc.property(robotsFile, (groups) => {
        const p = parseRobots(bytes(render(groups)));
        expect(p.errors).toEqual([]);
        expect(p.groups.map((g) => g.userAgents)).toEqual(
          groups.map(([agents]) => [...new Set(agents.map((a) => a.token))]),
        );
        expect(p.groups.map((g) => g.rules.map((r) => [r.kind, r.pattern]))).toEqual(
          groups.map(([, rules]) => rules.map((r) => [r.kind, r.pattern])),
        );
      }),
    );
  });

  // Each mutation breaks one production; the error names it.
  const mutations: [string, (file: string) => string, string][] = [
    ['drops the separator of a rule', (f) => f.replace(/(allow|disallow)(\s*):/i, '$1$2'), 'rule'],
    ['puts a rule before the first group', (f) => 'Disallow: /x\n' + f, 'group'],
    [
      'writes a product token with a space',
      (f) => f.replace(/(user-agent\s*:\s*)\S+/i, '$1Sogou web spider'),
      'product-token',
    ],
    [
      'writes a product token with a version',
      (f) => f.replace(/(user-agent\s*:\s*)\S+/i, '$1Googlebot/2.1'),
      'product-token',
    ],
    [
      'writes a path without its leading slash',
      (f) => f.replace(/((?:allow|disallow)[ \t]*:[ \t]*)\/?/i, '$1x'),
      'path-pattern',
    ],
  ];
  it.each(mutations)('refuses a file that %s, naming the production', (_name, mutate, production) => {
    fc.assert(
      fc.property(robotsFile, (groups) => {
        const p = parseRobots(bytes(mutate(render(groups))));
        expect(p.errors.map((e) => e.production)).toContain(production);
      }),
    );
  });
});

describe('robots access', () => {
  it('decides alike on one parsed file asked many questions as on a fresh parse for each', () => {
    // A file's group selections and decisions are kept with the parsed file, shared by crawlers that obey the same
    // groups: asked in any order, of named and unnamed crawlers, each answer is the one a fresh parse gives.
    const question = fc.tuple(fc.nat(), identifier, pathPattern);
    fc.assert(
      fc.property(robotsFile, fc.array(question, { minLength: 1, maxLength: 12 }), (groups, questions) => {
        const text = render(groups);
        const named = groups.flatMap(([agents]) => agents.map((a) => a.token));
        const shared = parseRobots(bytes(text));
        for (const [pick, other, path] of [...questions, ...questions]) {
          const tokens = [...named, other, '*'];
          const token = tokens[pick % tokens.length]!;
          expect(decide(shared, token, path), `${token} ${path}`).toEqual(
            decide(parseRobots(bytes(text)), token, path),
          );
        }
      }),
    );
  });

  it('decides the RFC 9309 simple example', () => {
    expect(allowed(SIMPLE, 'foobot', '/example/page.html')).toBe('allow');
    expect(allowed(SIMPLE, 'foobot', '/example/allowed.gif')).toBe('allow');
    expect(allowed(SIMPLE, 'foobot', '/other')).toBe('disallow');
    expect(allowed(SIMPLE, 'FooBot', '/other')).toBe('disallow');
    expect(allowed(SIMPLE, 'barbot', '/example/page.html')).toBe('disallow');
    expect(allowed(SIMPLE, 'bazbot', '/example/other.html')).toBe('allow');
    expect(allowed(SIMPLE, 'quxbot', '/example/page.html')).toBe('allow');
    expect(allowed(SIMPLE, 'otherbot', '/example/page.html')).toBe('disallow');
    expect(allowed(SIMPLE, 'otherbot', '/x/image.gif')).toBe('disallow');
    expect(allowed(SIMPLE, 'otherbot', '/x/image.gif?v=1')).toBe('allow');
    expect(allowed(SIMPLE, 'otherbot', '/publications/x')).toBe('allow');
  });

  it('applies the longest match (RFC 9309 section 5.2)', () => {
    const robots = 'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n';
    expect(allowed(robots, 'foobot', '/example/page/')).toBe('allow');
    expect(allowed(robots, 'foobot', '/example/page/disallowed.gif')).toBe('disallow');
  });

  it('lets allow win a tie of equal length', () => {
    expect(allowed('User-agent: *\nDisallow: /page\nAllow: /page\n', 'x', '/page')).toBe('allow');
    expect(allowed('User-agent: *\nAllow: /pag*\nDisallow: /page\n', 'x', '/page')).toBe('allow');
  });

  it('merges every group naming the token and ignores * groups then, naming the line that decided', () => {
    const robots = 'User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /\n\nUser-agent: a\nDisallow: /y\n';
    const p = parseRobots(bytes(robots));
    expect(decide(p, 'a', '/x')).toEqual({ decision: 'disallow', group: 'specific', line: 2 });
    expect(decide(p, 'a', '/y')).toEqual({ decision: 'disallow', group: 'specific', line: 8 });
    expect(decide(p, 'a', '/z')).toEqual({ decision: 'allow', group: 'specific', line: null });
    expect(decide(p, 'b', '/z')).toEqual({ decision: 'disallow', group: 'wildcard', line: 5 });
  });

  it('allows everything when no group applies, and always allows /robots.txt', () => {
    expect(decide(parseRobots(bytes('User-agent: a\nDisallow: /\n')), 'b', '/')).toEqual({
      decision: 'allow',
      group: 'none',
      line: null,
    });
    expect(allowed('User-agent: *\nDisallow: /\n', 'b', '/robots.txt')).toBe('allow');
  });

  it('treats an empty disallow as no rule', () => {
    expect(allowed('User-agent: *\nDisallow:\n', 'x', '/anything')).toBe('allow');
  });

  it('matches * and $ as RFC 9309 section 2.2.3 says', () => {
    expect(patternMatches('/this/*/exactly', '/this/a/b/exactly/more')).toBe(true);
    expect(patternMatches('/this/path/exactly$', '/this/path/exactly')).toBe(true);
    expect(patternMatches('/this/path/exactly$', '/this/path/exactly/')).toBe(false);
    expect(patternMatches('/*.php$', '/a/b.php')).toBe(true);
    expect(patternMatches('/*.php$', '/a/b.php5')).toBe(false);
    expect(patternMatches('/a*b*c', '/aXbYc')).toBe(true);
    expect(patternMatches('/a*b*c$', '/aXbYcZ')).toBe(false);
    expect(patternMatches('*', '/anything')).toBe(true);
  });

  it('compares percent-encoded and raw octets alike (RFC 9309 section 2.2.2)', () => {
    expect(normalisePath('/foo/bar/ツ')).toBe('/foo/bar/%E3%83%84');
    expect(normalisePath('/foo/bar/%e3%83%84')).toBe('/foo/bar/%E3%83%84');
    expect(allowed('User-agent: *\nDisallow: /foo/bar/ツ\n', 'x', '/foo/bar/%E3%83%84')).toBe('disallow');
    expect(allowed('User-agent: *\nDisallow: /foo/bar/%62%61%7A\n', 'x', '/foo/bar/baz')).toBe('allow');
    expect(allowed('User-agent: *\nDisallow: /foo/bar?baz=quz\n', 'x', '/foo/bar?baz=quz')).toBe('disallow');
  });

  // A path of ASCII letters and characters outside US-ASCII, and its UTF-8 octets percent-encoded.
  const nonAscii = fc
    .integer({ min: 0x80, max: 0x10ffff })
    .filter((c) => c < 0xd800 || c > 0xdfff)
    .map((c) => String.fromCodePoint(c));
  const rawPath = fc
    .array(fc.oneof(fc.constantFrom(...'abcxyz/'.split('')), nonAscii), { minLength: 1, maxLength: 8 })
    .map((chars) => `/${chars.join('')}`)
    .filter((p) => /[^ -~]/.test(p));
  const encode = (path: string, lower: boolean) =>
    [...path]
      .map((ch) =>
        ch.charCodeAt(0) < 0x80
          ? ch
          : [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
      )
      .join('')
      .replace(/%[0-9a-f]{2}/g, (e) => (lower ? e : e.toUpperCase()));

  it('matches a generated rule written with raw octets outside US-ASCII and the encoded URL, either way round', () => {
    fc.assert(
      fc.property(rawPath, fc.boolean(), (path, lower) => {
        const encoded = encode(path, lower);
        expect(allowed(`User-agent: *\nDisallow: ${path}$\n`, 'x', encoded)).toBe('disallow');
        expect(allowed(`User-agent: *\nDisallow: ${encoded}$\n`, 'x', path)).toBe('disallow');
        expect(normalisePath(path)).toBe(encode(path, false));
      }),
    );
  });

  it('does not match when one encoded octet differs, or when the rule encodes an unreserved ASCII character', () => {
    fc.assert(
      fc.property(rawPath, nonAscii, (path, other) => {
        const swapped = path.replace(/[^ -~]/u, other);
        fc.pre(swapped !== path);
        expect(allowed(`User-agent: *\nDisallow: ${swapped}$\n`, 'x', encode(path, false))).toBe('allow');
      }),
    );
    expect(allowed('User-agent: *\nDisallow: /foo/%E3%83%85\n', 'x', '/foo/ツ')).toBe('allow');
    expect(allowed('User-agent: *\nDisallow: /foo/%62ar\n', 'x', '/foo/bar')).toBe('allow');
  });

  it('keeps a path disallowed by an exact rule when unrelated lines are appended', () => {
    const segment = fc.stringMatching(/^[a-z0-9._~-]{1,12}$/);
    const otherToken = fc.stringMatching(/^[a-z_-]{1,12}$/).filter((t) => t !== 'testbot');
    const unrelated = fc.oneof(
      fc.constant(''),
      fc.string({ maxLength: 30 }).map((s) => '# ' + s.replace(/[\r\n]/g, ' ')),
      segment.map((s) => `Sitemap: https://example.test/${s}.xml`),
      fc
        .tuple(fc.oneof(otherToken, fc.constant('*')), fc.constantFrom('Allow', 'Disallow'), segment)
        .map(([ua, kind, s]) => `User-agent: ${ua}\n${kind}: /${s}`),
    );
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.array(unrelated, { maxLength: 8 }),
        (parts, extra) => {
          const path = '/' + parts.join('/');
          const base = `User-agent: testbot\nDisallow: ${path}$\n`;
          expect(allowed(base, 'testbot', path)).toBe('disallow');
          expect(allowed(base + extra.join('\n') + '\n', 'testbot', path)).toBe('disallow');
        },
      ),
    );
  });
});
