import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
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
    });
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
