import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSitemap, SITEMAP_NAMESPACE } from '../../../plugins/wellknown/parse-sitemap.ts';
import { gunzipWithin } from '../../../plugins/wellknown/parse-sitemap.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const URL_ = 'https://good.test/sitemap.xml';

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="${SITEMAP_NAMESPACE}">
  <url><loc>https://good.test/</loc><lastmod>2026-01-15</lastmod></url>
  <url><loc>https://good.test/a?x=1&amp;y=2</loc><lastmod>2026-02-01T10:00:00+01:00</lastmod></url>
  <url><loc>https://other.test/b</loc><lastmod>yesterday</lastmod></url>
  <url><loc>/relative</loc></url>
  <url><changefreq>daily</changefreq></url>
</urlset>`;

describe('parseSitemap', () => {
  it('counts the entries of a urlset', () => {
    expect(parseSitemap(bytes(URLSET), URL_)).toEqual({
      format: 'xml',
      wellFormed: true,
      xmlError: null,
      root: 'urlset',
      namespace: SITEMAP_NAMESPACE,
      entryCount: 5,
      locMissing: 1,
      locInvalid: 1,
      offHost: 1,
      lastmodCount: 3,
      lastmodInvalid: 1,
      lastmodLatest: '2026-02-01T09:00:00.000Z',
      sitemapLikeLocs: 0,
      children: [],
      pointers: [
        { fact: 'off_host', line: 5 },
        { fact: 'lastmod_invalid', line: 5 },
        { fact: 'loc_invalid', line: 6 },
        { fact: 'loc_missing', line: 7 },
      ],
      lines: URLSET.split('\n'),
    });
  });

  it('points at the line of the element a count counts, whatever the line breaks and the order of children', () => {
    const text = [
      `<urlset xmlns="${SITEMAP_NAMESPACE}">`,
      '  <url>',
      '    <lastmod>soon</lastmod>',
      '    <loc>https://other.test/</loc>',
      '  </url>',
      '  <url><loc>https://good.test/</loc></url>',
      '</urlset>',
    ].join('\r\n');
    expect(parseSitemap(bytes(text), URL_).pointers).toEqual([
      { fact: 'off_host', line: 4 },
      { fact: 'lastmod_invalid', line: 3 },
    ]);
    expect(parseSitemap(bytes(text.replace(/\r\n/g, '\r')), URL_).pointers).toEqual([
      { fact: 'off_host', line: 4 },
      { fact: 'lastmod_invalid', line: 3 },
    ]);
    // A clean sitemap is not split into lines; a root that is not a sitemap's is quoted.
    const clean = parseSitemap(bytes(text.replace('other.test', 'good.test').replace('soon', '2026-01-01')), URL_);
    expect([clean.pointers, clean.lines]).toEqual([[], []]);
    const feed = parseSitemap(bytes('<?xml version="1.0"?>\n\n<rss version="2.0"><channel/></rss>'), URL_);
    expect(feed.pointers).toEqual([{ fact: 'root', line: 3 }]);
    const foreign = parseSitemap(bytes('<urlset>\n<url><loc>https://good.test/</loc></url></urlset>'), URL_);
    expect(foreign.pointers).toEqual([{ fact: 'root', line: 1 }]);
  });

  it('lists the children of an index and marks a urlset whose locs are sitemaps', () => {
    const index = `<sitemapindex xmlns="${SITEMAP_NAMESPACE}"><sitemap><loc>https://good.test/a.xml</loc></sitemap><sitemap><loc>https://good.test/b.xml.gz</loc></sitemap><sitemap><loc>nowhere</loc></sitemap></sitemapindex>`;
    expect(parseSitemap(bytes(index), URL_).children).toEqual([
      'https://good.test/a.xml',
      'https://good.test/b.xml.gz',
    ]);
    const asUrlset = `<urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>https://good.test/a.xml</loc></url><url><loc>https://good.test/b.xml.gz</loc></url></urlset>`;
    const p = parseSitemap(bytes(asUrlset), URL_);
    expect([p.root, p.entryCount, p.sitemapLikeLocs, p.children]).toEqual(['urlset', 2, 2, []]);
  });

  it('reads a sitemap index, also with a namespace prefix', () => {
    const index = `<sm:sitemapindex xmlns:sm="${SITEMAP_NAMESPACE}"><sm:sitemap><sm:loc>https://good.test/s1.xml</sm:loc></sm:sitemap></sm:sitemapindex>`;
    const p = parseSitemap(bytes(index), URL_);
    expect([p.root, p.namespace, p.entryCount, p.locMissing, p.offHost]).toEqual([
      'sitemapindex',
      SITEMAP_NAMESPACE,
      1,
      0,
      0,
    ]);
  });

  it('reports XML that is not well-formed, with the line', () => {
    const p = parseSitemap(bytes('<urlset>\n<url><loc>x</url>\n</urlset>'), URL_);
    expect(p.wellFormed).toBe(false);
    expect(p.xmlError).toMatch(/^line 2: /);
    expect(p.entryCount).toBeNull();
    // The line an excerpt quotes.
    expect(p.pointers).toEqual([{ fact: 'xml_error', line: 2 }]);
    expect(p.lines[1]).toBe('<url><loc>x</url>');
  });

  it('reads a text sitemap, one URL per line, counting the lines that are not URLs and naming where they are', () => {
    const text =
      '\uFEFFhttps://good.test/\r\nhttps://good.test/a b\n\nhttps://other.test/x\n/relative\nhttps://good.test/s.xml\n';
    expect(parseSitemap(bytes(text), 'https://good.test/sitemap.txt')).toMatchObject({
      format: 'text',
      wellFormed: null,
      root: null,
      entryCount: 5,
      locMissing: 0,
      locInvalid: 1,
      offHost: 1,
      sitemapLikeLocs: 1,
      pointers: [{ fact: 'loc_invalid', line: 5 }],
    });
  });

  it('reads a body that opens with markup, or whose first line is not a URL, as XML', () => {
    expect(parseSitemap(bytes('Not found\nhttps://good.test/'), URL_)).toMatchObject({
      format: 'xml',
      wellFormed: false,
    });
    expect(parseSitemap(bytes('<rss version="2.0"><channel></channel></rss>'), URL_)).toMatchObject({
      format: 'xml',
      wellFormed: true,
      root: 'rss',
    });
  });

  it('reports another root without counting', () => {
    const p = parseSitemap(bytes('<html><body>hi</body></html>'), URL_);
    expect([p.wellFormed, p.root, p.namespace, p.entryCount]).toEqual([true, 'html', null, null]);
  });

  it('counts an over-long loc as invalid', () => {
    const long = 'https://good.test/' + 'a'.repeat(2100);
    expect(
      parseSitemap(bytes(`<urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>${long}</loc></url></urlset>`), URL_)
        .locInvalid,
    ).toBe(1);
  });
});

describe('gunzipWithin', () => {
  it('passes plain bodies through and decompresses gzip within the cap', () => {
    const plain = Buffer.from(URLSET);
    expect(gunzipWithin(plain, 1000)).toEqual({ bytes: plain, gzip: false });
    expect(gunzipWithin(gzipSync(plain), 100_000).bytes?.toString()).toBe(URLSET);
    expect(gunzipWithin(gzipSync(plain), 100)).toEqual({ bytes: null, gzip: true });
  });
});

// The examples of the sitemaps.org protocol page (https://www.sitemaps.org/protocol.html, "Sample XML Sitemap" and
// "Sample XML Sitemap Index"), verbatim.
const PROTOCOL_URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
   <url>
      <loc>http://www.example.com/</loc>
      <lastmod>2005-01-01</lastmod>
      <changefreq>monthly</changefreq>
      <priority>0.8</priority>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=12&amp;desc=vacation_hawaii</loc>
      <changefreq>weekly</changefreq>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=73&amp;desc=vacation_new_zealand</loc>
      <lastmod>2004-12-23</lastmod>
      <changefreq>weekly</changefreq>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=74&amp;desc=vacation_newfoundland</loc>
      <lastmod>2004-12-23T18:00:15+00:00</lastmod>
      <priority>0.3</priority>
   </url>
   <url>
      <loc>http://www.example.com/catalog?item=83&amp;desc=vacation_usa</loc>
      <lastmod>2004-11-23</lastmod>
   </url>
</urlset>`;
const PROTOCOL_INDEX = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
   <sitemap>
      <loc>http://www.example.com/sitemap1.xml.gz</loc>
      <lastmod>2004-10-01T18:23:17+00:00</lastmod>
   </sitemap>
   <sitemap>
      <loc>http://www.example.com/sitemap2.xml.gz</loc>
      <lastmod>2005-01-01</lastmod>
   </sitemap>
</sitemapindex>`;
const EXAMPLE_URL = 'http://www.example.com/sitemap.xml';

describe('parseSitemap: the examples of the sitemaps.org protocol', () => {
  it('reads the sample sitemap: five entries, four lastmod dates, the latest a date-time', () => {
    expect(parseSitemap(bytes(PROTOCOL_URLSET), EXAMPLE_URL)).toMatchObject({
      wellFormed: true,
      root: 'urlset',
      namespace: SITEMAP_NAMESPACE,
      entryCount: 5,
      locMissing: 0,
      locInvalid: 0,
      offHost: 0,
      lastmodCount: 4,
      lastmodInvalid: 0,
      lastmodLatest: '2005-01-01T00:00:00.000Z',
      sitemapLikeLocs: 0,
    });
  });

  it('reads the sample index: two children, in order', () => {
    expect(parseSitemap(bytes(PROTOCOL_INDEX), EXAMPLE_URL)).toMatchObject({
      wellFormed: true,
      root: 'sitemapindex',
      entryCount: 2,
      locInvalid: 0,
      lastmodCount: 2,
      lastmodInvalid: 0,
      lastmodLatest: '2005-01-01T00:00:00.000Z',
      children: ['http://www.example.com/sitemap1.xml.gz', 'http://www.example.com/sitemap2.xml.gz'],
    });
  });

  it('reads the entity-escaped URL of the protocol page as one valid loc', () => {
    const loc = 'http://www.example.com/%C3%BCmlat.php&amp;q=name';
    const xml = `<urlset xmlns="${SITEMAP_NAMESPACE}"><url><loc>${loc}</loc></url></urlset>`;
    expect(parseSitemap(bytes(xml), EXAMPLE_URL)).toMatchObject({ entryCount: 1, locInvalid: 0, offHost: 0 });
  });
});

// Sitemaps generated from the protocol's structure (XML schema sitemap.xsd and siteindex.xsd): a urlset of url
// entries or a sitemapindex of sitemap entries, each a loc (an absolute http(s) URL, XML-escaped) and optional
// lastmod (a W3C Datetime at any of its precisions), changefreq and priority, with or without a namespace prefix.
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const w3cDatetime = fc
  .tuple(
    fc.integer({ min: 1995, max: 2030 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom('Z', '+00:00', '+01:00', '-05:30'),
    fc.integer({ min: 0, max: 4 }),
  )
  .map(([y, mo, d, h, mi, s, zone, precision]) => {
    const forms = [
      `${y}`,
      `${y}-${pad(mo)}`,
      `${y}-${pad(mo)}-${pad(d)}`,
      `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}${zone}`,
      `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}.5${zone}`,
    ];
    return forms[precision]!;
  });
const pathSegment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
const entry = fc.record({
  scheme: fc.constantFrom('http', 'https'),
  path: fc.array(pathSegment, { maxLength: 4 }),
  query: fc.option(fc.tuple(pathSegment, pathSegment), { nil: null }),
  lastmod: fc.option(w3cDatetime, { nil: null }),
  changefreq: fc.option(fc.constantFrom('always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'), {
    nil: null,
  }),
  priority: fc.option(
    fc.integer({ min: 0, max: 10 }).map((p) => (p / 10).toFixed(1)),
    { nil: null },
  ),
});
type Entry = typeof entry extends fc.Arbitrary<infer T> ? T : never;
const locOf = (e: Entry) =>
  `${e.scheme}://www.example.com/${e.path.join('/')}${e.query ? `?${e.query[0]}=1&${e.query[1]}=2` : ''}`;
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function writeSitemap(root: 'urlset' | 'sitemapindex', entries: Entry[], prefix: string, ws: string): string {
  const p = prefix ? `${prefix}:` : '';
  const item = root === 'urlset' ? 'url' : 'sitemap';
  const body = entries.map((e) => {
    const parts = [`<${p}loc>${escapeXml(locOf(e))}</${p}loc>`];
    if (e.lastmod) parts.push(`<${p}lastmod>${e.lastmod}</${p}lastmod>`);
    if (root === 'urlset' && e.changefreq) parts.push(`<${p}changefreq>${e.changefreq}</${p}changefreq>`);
    if (root === 'urlset' && e.priority) parts.push(`<${p}priority>${e.priority}</${p}priority>`);
    return `<${p}${item}>${ws}${parts.join(ws)}${ws}</${p}${item}>`;
  });
  const xmlns = prefix ? `xmlns:${prefix}` : 'xmlns';
  return `<?xml version="1.0" encoding="UTF-8"?>${ws}<${p}${root} ${xmlns}="${SITEMAP_NAMESPACE}">${ws}${body.join(ws)}${ws}</${p}${root}>`;
}

const generated = fc.record({
  root: fc.constantFrom('urlset' as const, 'sitemapindex' as const),
  entries: fc.array(entry, { minLength: 1, maxLength: 6 }),
  prefix: fc.constantFrom('', 'sm'),
  ws: fc.constantFrom('', '\n', '\n   ', '\r\n\t'),
});

describe('parseSitemap: sitemaps generated from the protocol', () => {
  it('all parse, with every entry, loc and lastmod counted and the latest lastmod read', () => {
    fc.assert(
      fc.property(generated, ({ root, entries, prefix, ws }) => {
        const p = parseSitemap(bytes(writeSitemap(root, entries, prefix, ws)), EXAMPLE_URL);
        const dates = entries.flatMap((e) => (e.lastmod ? [Date.parse(e.lastmod)] : []));
        expect(p).toMatchObject({
          wellFormed: true,
          root,
          namespace: SITEMAP_NAMESPACE,
          entryCount: entries.length,
          locMissing: 0,
          locInvalid: 0,
          offHost: 0,
          lastmodCount: dates.length,
          lastmodInvalid: 0,
          lastmodLatest: dates.length ? new Date(Math.max(...dates)).toISOString() : null,
        });
        if (root === 'sitemapindex') expect(p.children).toEqual(entries.map((e) => new URL(locOf(e)).href));
      }),
    );
  });
});

// Each mutation breaks one part of the protocol in one entry; the fact that names that part counts it, and nothing
// else moves.
const MUTATIONS: [string, (xml: string) => string, Partial<ReturnType<typeof parseSitemap>>][] = [
  ['a relative loc', (x) => x.replace(/<((?:sm:)?loc)>[a-z]+:\/\/www\.example\.com/, '<$1>'), { locInvalid: 1 }],
  ['a loc without a scheme', (x) => x.replace(/<((?:sm:)?loc)>[a-z]+:\/\//, '<$1>'), { locInvalid: 1 }],
  ['a loc of another scheme', (x) => x.replace(/<((?:sm:)?loc)>[a-z]+:/, '<$1>ftp:'), { locInvalid: 1 }],
  ['a loc of 2,048 characters', (x) => x.replace(/(<\/(?:sm:)?loc>)/, `${'a'.repeat(2048)}$1`), { locInvalid: 1 }],
  ['an empty loc', (x) => x.replace(/<((?:sm:)?loc)>[^<]*</, '<$1><'), { locMissing: 1 }],
  ['a loc on another host', (x) => x.replace('www.example.com', 'other.example'), { offHost: 1 }],
];

describe('parseSitemap: mutations that break one part are counted, naming it', () => {
  it.each(MUTATIONS)('%s', (_name, mutate, moved) => {
    fc.assert(
      fc.property(generated, ({ root, entries, prefix, ws }) => {
        const p = parseSitemap(bytes(mutate(writeSitemap(root, entries, prefix, ws))), EXAMPLE_URL);
        expect(p).toMatchObject({
          wellFormed: true,
          entryCount: entries.length,
          locMissing: 0,
          locInvalid: 0,
          ...moved,
        });
      }),
    );
  });

  it('a lastmod outside the W3C Datetime profile is counted as invalid', () => {
    const broken = fc.constantFrom('2005-1-1', '01/01/2005', 'yesterday', '2005-01-01T10:00', '2005-01-01 10:00:00Z');
    fc.assert(
      fc.property(generated, broken, ({ root, entries, prefix, ws }, lastmod) => {
        const [first, ...rest] = entries;
        const p = parseSitemap(bytes(writeSitemap(root, [{ ...first!, lastmod }, ...rest], prefix, ws)), EXAMPLE_URL);
        expect(p.lastmodInvalid).toBe(1);
        expect(p.lastmodCount).toBe(1 + rest.filter((e) => e.lastmod).length);
      }),
    );
  });

  it('XML that is not well-formed is refused with its line; another root or namespace is reported', () => {
    fc.assert(
      fc.property(generated, ({ root, entries, prefix, ws }) => {
        const xml = writeSitemap(root, entries, prefix, ws);
        const unclosed = parseSitemap(bytes(xml.replace(/<\/(?:sm:)?loc>/, '')), EXAMPLE_URL);
        expect(unclosed.wellFormed).toBe(false);
        expect(unclosed.xmlError).toMatch(/^line \d+: /);
        expect(parseSitemap(bytes(xml.replace(/&amp;/, '&')), EXAMPLE_URL).wellFormed).toBe(!xml.includes('&amp;'));
        const renamed = xml.replaceAll(`${prefix ? `${prefix}:` : ''}${root}`, `${prefix ? `${prefix}:` : ''}feed`);
        expect(parseSitemap(bytes(renamed), EXAMPLE_URL)).toMatchObject({ root: 'feed', entryCount: null });
        const namespace = parseSitemap(bytes(xml.replace(SITEMAP_NAMESPACE, 'http://example.com/ns')), EXAMPLE_URL);
        expect(namespace.namespace).toBe('http://example.com/ns');
      }),
    );
  });
});
