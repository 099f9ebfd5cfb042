// The provider over an in-memory site: which requests each facet makes, the facts it returns, and that every
// output validates against schemas/observations/wellknown.json. The world test covers the real network layer.
import { describe, expect, it } from 'vitest';
import { provider } from '../../../plugins/wellknown/index.ts';
import { NOT_FOUND_PATH } from '../../../plugins/shared/fetch-document.ts';
import { AI_CRAWLER_TOKENS } from '../../../plugins/wellknown/ai-crawlers.ts';
import type { WellknownObservations } from '../../../src/lib/schema-types/observations/wellknown.ts';
import { NetError } from '../../../src/net/types.ts';
import { fakeContext, fakeNet, type Page } from '../fake-net.ts';
import { facets } from '../../helpers/typed-json.ts';

async function collect<F extends keyof WellknownObservations>(pages: Record<string, Page>, names: F[]) {
  const seen: string[] = [];
  const data = await provider.collect('Good.Test', fakeContext(fakeNet(pages, seen), 'wellknown', names));
  return { data: facets('wellknown', data, names), seen: seen.sort() };
}

const ROBOTS =
  'User-agent: *\nAllow: /\nContent-Signal: search=yes, ai-train=no\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://good.test/sitemap.xml\n';
const SITE: Record<string, Page> = {
  '/robots.txt': { status: 200, body: ROBOTS },
  '/llms.txt': {
    status: 200,
    body: '# Good\n\n> Summary.\n\n## Docs\n\n- [Start](https://good.test/start.md): begin\n',
  },
  '/sitemap.xml': {
    status: 200,
    headers: { 'content-type': 'application/xml' },
    body: '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://good.test/</loc></url></urlset>',
  },
  '/': {
    status: 200,
    headers: { 'content-type': 'text/html', link: '</llms.txt>; rel="describedby"; type="text/plain"' },
    body: '<!doctype html><p>hi',
  },
};

describe('wellknown provider', () => {
  it('reports exactly the crawler tokens its schema declares', () => {
    type Node = { properties: Record<string, Node> };
    const access = (provider.schema as Node).properties.robots!.properties.access!;
    expect(Object.keys(access.properties).sort()).toEqual([...AI_CRAWLER_TOKENS].sort());
  });

  it('makes only the requests the quick facets need', async () => {
    const { data, seen } = await collect(SITE, ['robots', 'llms_txt']);
    expect(Object.keys(data).sort()).toEqual(['llms_txt', 'robots']);
    expect(seen).toEqual([
      `https://good.test${NOT_FOUND_PATH}`,
      'https://good.test/llms.txt',
      'https://good.test/robots.txt',
    ]);
  });

  it('reports robots.txt access per crawler token', async () => {
    const { data } = await collect(SITE, ['robots']);
    const r = data.robots;
    expect(r.availability).toBe('available');
    expect(r.document).toMatchObject({
      status: 200,
      content_type: 'text/plain',
      charset: 'utf-8',
      soft_404: false,
      body_is_html: false,
    });
    expect(r.access.GPTBot).toEqual({
      root: 'disallow',
      llms_txt: 'disallow',
      well_known: 'disallow',
      sitemap: 'disallow',
      group: 'specific',
    });
    expect(r.access['ChatGPT-User']).toEqual({
      root: 'allow',
      llms_txt: 'allow',
      well_known: 'allow',
      sitemap: 'allow',
      group: 'wildcard',
    });
    expect(r.sitemaps).toEqual(['https://good.test/sitemap.xml']);
    expect(r.sitemap_path).toBe('/sitemap.xml');
    expect(r.groups).toEqual([
      { line: 1, user_agents: ['*'], allow_rules: 1, disallow_rules: 0, crawl_delay: null },
      { line: 5, user_agents: ['gptbot'], allow_rules: 0, disallow_rules: 1, crawl_delay: null },
    ]);
  });

  it('applies RFC 9309 to an unavailable and an unreachable robots.txt', async () => {
    const missing = (await collect({}, ['robots'])).data.robots;
    expect(missing.availability).toBe('unavailable');
    expect(missing.access['Claude-User'].root).toBe('allow');
    expect(missing.parse_errors).toBeNull();
    const down = (await collect({ '/robots.txt': { status: 503, body: 'busy' } }, ['robots'])).data.robots;
    expect(down.availability).toBe('unreachable');
    expect(down.wildcard.root).toBe('disallow');
    const refused = (await collect({ '/robots.txt': new NetError('connect_refused', 'refused') }, ['robots'])).data
      .robots;
    expect(refused.document).toMatchObject({ status: null, error: 'connect_refused' });
    expect(refused.access.GPTBot.root).toBe('disallow');
  });

  it('marks a catch-all answer as a soft 404', async () => {
    const page: Page = {
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<!DOCTYPE html><html><body>app</body></html>',
    };
    const { data } = await collect({ '/robots.txt': page, '/llms.txt': page, [NOT_FOUND_PATH]: page }, [
      'robots',
      'llms_txt',
    ]);
    expect(data.robots.document).toMatchObject({ status: 200, soft_404: true, body_is_html: true });
    expect(data.llms_txt.document.soft_404).toBe(true);
  });

  it('collects usage, llms, sitemap, security.txt and discovery facts', async () => {
    const pages: Record<string, Page> = {
      ...SITE,
      '/.well-known/security.txt': {
        status: 200,
        body: 'Contact: mailto:s@good.test\nExpires: 2026-12-01T00:00:00Z\n',
      },
      '/.well-known/tdmrep.json': {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '[{"location":"/","tdm-reservation":0}]',
      },
      '/llms-full.txt': { status: 200, body: '# Good, in full\n' },
    };
    const { data } = await collect(pages, [
      'usage',
      'llms_txt',
      'llms_full_txt',
      'sitemap',
      'security_txt',
      'discovery',
    ]);
    expect(data.usage.content_signals).toEqual([
      {
        line: 3,
        user_agents: ['*'],
        value: 'search=yes, ai-train=no',
        signals: { search: 'yes', 'ai-train': 'no' },
        problems: [],
        root: 'allow',
      },
    ]);
    expect(data.usage.tdmrep.entries).toEqual([{ location: '/', tdm_reservation: 0, tdm_policy: null }]);
    expect(data.llms_txt).toMatchObject({
      title: 'Good',
      summary: 'Summary.',
      link_count: 1,
      markdown_link_count: 1,
      parse_errors: [],
    });
    expect(data.llms_full_txt).toMatchObject({ first_heading: 'Good, in full', first_heading_level: 1 });
    expect(data.sitemap).toMatchObject({
      source: 'robots',
      well_formed: true,
      root: 'urlset',
      entry_count: 1,
      off_host: 0,
      gzip: false,
    });
    expect(data.security_txt).toMatchObject({ https: true, expires: '2026-12-01T00:00:00.000Z', insecure_uris: [] });
    expect(data.security_txt.legacy).toMatchObject({ published: false, document: { status: 404 } });
    expect(data.discovery.link_rels).toEqual(['describedby']);
    expect(data.discovery.unknown_well_known.status).toBe(404);
  });
  it('follows every declared sitemap and the children of indexes, within the bound', async () => {
    const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
    const xml = { 'content-type': 'application/xml' };
    const urlset = (locs: string[]) =>
      `<urlset xmlns="${NS}">${locs.map((l) => `<url><loc>https://good.test${l}</loc></url>`).join('')}</urlset>`;
    const children = Array.from({ length: 40 }, (_, i) => `/part-${i}.xml`);
    const pages: Record<string, Page> = {
      ...SITE,
      '/robots.txt': {
        status: 200,
        body: 'User-agent: *\nAllow: /\nSitemap: https://good.test/index.xml\nSitemap: https://good.test/as-urlset.xml\nSitemap: https://good.test/missing.xml\n',
      },
      '/index.xml': {
        status: 200,
        headers: xml,
        body: `<sitemapindex xmlns="${NS}">${children.map((c) => `<sitemap><loc>https://good.test${c}</loc></sitemap>`).join('')}</sitemapindex>`,
      },
      '/as-urlset.xml': { status: 200, headers: xml, body: urlset(['/a.xml', '/b.xml.gz']) },
      ...Object.fromEntries(children.map((c) => [c, { status: 200, headers: xml, body: urlset(['/page']) }])),
    };
    const { data, seen } = await collect(pages, ['robots', 'sitemap']);
    const sitemap = data.sitemap;
    expect(sitemap.declared_count).toBe(3);
    expect(sitemap.documents).toHaveLength(25);
    expect(sitemap.documents.slice(0, 4).map((d) => [d.source, d.root])).toEqual([
      ['robots', 'sitemapindex'],
      ['robots', 'urlset'],
      ['robots', null],
      ['index', 'urlset'],
    ]);
    expect(sitemap.documents[1]?.sitemap_like_locs).toBe(2);
    expect(sitemap.documents[2]?.published).toBe(false);
    // 3 declared + 22 of the 40 children fetched; the other 18 are counted, not fetched.
    expect(sitemap.not_followed).toBe(18);
    expect(seen.filter((u) => u.includes('/part-'))).toHaveLength(22);
    // The first document's facts stay at the top.
    expect([sitemap.source, sitemap.root, sitemap.entry_count]).toEqual(['robots', 'sitemapindex', 40]);
  });
});
