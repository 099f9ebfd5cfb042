// The sitemap facet: every sitemap robots.txt declares (else /sitemap.xml) and the children of every index among
// them, followed in order up to a bound, each fetched once within a cap, gunzipped when it is a .gz file, and
// parsed. The first document's facts stand at the top, as before; every followed document is listed. A body cut
// at the cap is not judged for well-formedness.
import { declaredSitemaps, robotsFile } from './collect-robots.ts';
import { gunzipWithin, parseSitemap, type ParsedSitemap } from './parse-sitemap.ts';
import type { DocumentFacts, DocumentFetcher } from '../shared/fetch-document.ts';
import { lineExcerpt, type LinePointer } from '../shared/line-excerpt.ts';

const SITEMAP_BYTES = 2 * 1024 * 1024;
/** Decompressed size read from a gzip sitemap; a larger one is reported with unknown structure. */
const SITEMAP_UNZIPPED_BYTES = 16 * 1024 * 1024;
/** Sitemaps fetched in one scan, declared ones and index children together (one real site declares 488). */
export const SITEMAPS_FOLLOWED = 25;
/** Fetched at once: a few, so a long list does not hold many connections open on the site. */
const PARALLEL = 4;

type Source = 'robots' | 'default' | 'index';

interface Followed {
  url: string;
  source: Source;
  published: boolean;
  document: DocumentFacts;
  gzip: boolean | null;
  uncompressedBytes: number | null;
  parsed: ParsedSitemap | null;
}

async function follow(f: DocumentFetcher, url: string, source: Source): Promise<Followed> {
  const { published, document, exchange: ex } = await f.open(url, { maxBytes: SITEMAP_BYTES });
  const unzipped = published && ex ? gunzipWithin(ex.body, SITEMAP_UNZIPPED_BYTES) : null;
  const parsed = ex && !ex.truncated && unzipped?.bytes ? parseSitemap(unzipped.bytes, ex.url) : null;
  const uncompressedBytes = unzipped?.bytes?.length ?? null;
  return { url, source, published, document, gzip: unzipped?.gzip ?? null, uncompressedBytes, parsed };
}

/** Declared sitemaps first, then index children, in order, without repeats, at most SITEMAPS_FOLLOWED. */
async function walk(f: DocumentFetcher, start: { url: string; source: Source }[]) {
  const seen = new Set(start.map((s) => s.url));
  const queue = [...start];
  const done: Followed[] = [];
  while (queue.length > 0 && done.length < SITEMAPS_FOLLOWED) {
    const batch = queue.splice(0, Math.min(PARALLEL, SITEMAPS_FOLLOWED - done.length));
    const results = await Promise.all(batch.map((s) => follow(f, s.url, s.source)));
    for (const r of results) {
      done.push(r);
      // An index lists sitemaps, never other indexes (sitemaps.org): children of declared documents only.
      if (r.source === 'index') continue;
      for (const child of r.parsed?.children ?? []) {
        if (!seen.has(child)) queue.push({ url: child, source: 'index' });
        seen.add(child);
      }
    }
  }
  return { done, notFollowed: queue.length };
}

function facts(d: Followed) {
  const p = d.parsed;
  return {
    gzip: d.gzip,
    uncompressed_bytes: d.uncompressedBytes,
    format: p?.format ?? null,
    well_formed: p?.wellFormed ?? null,
    xml_error: p?.xmlError ?? null,
    root: p?.root ?? null,
    namespace: p?.namespace ?? null,
    entry_count: p?.entryCount ?? null,
    loc_missing: p?.locMissing ?? null,
    loc_invalid: p?.locInvalid ?? null,
    off_host: p?.offHost ?? null,
    lastmod_count: p?.lastmodCount ?? null,
    lastmod_invalid: p?.lastmodInvalid ?? null,
    lastmod_latest: p?.lastmodLatest ?? null,
    sitemap_like_locs: p?.sitemapLikeLocs ?? null,
  };
}

/**
 * The lines the first sitemap's facts point at: where its XML stops being well-formed, a root element that is not
 * a sitemap's, the entries and values its counts count (parse-sitemap.ts), its invalid text lines.
 */
function* sitemapPointers(p: ParsedSitemap): Generator<LinePointer> {
  for (const { fact, line } of p.pointers) {
    yield [fact, line];
    if (fact === 'xml_error') yield ['well_formed', line];
    if (fact === 'root') yield ['namespace', line];
  }
}

export async function collectSitemap(f: DocumentFetcher) {
  const robots = await robotsFile(f);
  const declared = [...new Set(declaredSitemaps(robots.parsed).map((u) => u.href))];
  // The first document followed is the first declared one, or the default location.
  const origin: 'robots' | 'default' = declared.length > 0 ? 'robots' : 'default';
  const start =
    declared.length > 0 ? declared.map((url) => ({ url, source: origin })) : [{ url: '/sitemap.xml', source: origin }];
  const { done, notFollowed } = await walk(f, start);
  const first = done[0]!;
  return {
    published: first.published,
    source: origin,
    document: first.document,
    ...facts(first),
    excerpt: first.parsed ? lineExcerpt(first.parsed.lines, sitemapPointers(first.parsed)) : null,
    declared_count: declared.length,
    documents: done.map((d) => ({
      url: d.document.url ?? f.target(d.url),
      source: d.source,
      published: d.published,
      status: d.document.status,
      ...facts(d),
    })),
    not_followed: notFollowed,
  };
}
