// The sitemap facet: the first sitemap robots.txt declares (else /sitemap.xml), fetched once within a cap,
// gunzipped when it is a .gz file, and parsed. A body cut at the cap is not judged for well-formedness.
import { declaredSitemaps, robotsFile } from './facet-robots.ts';
import { gunzipWithin, parseSitemap } from './parse-sitemap.ts';
import type { DocumentFetcher } from '../shared/fetch-document.ts';

const SITEMAP_BYTES = 2 * 1024 * 1024;
/** Decompressed size read from a gzip sitemap; a larger one is reported with unknown structure. */
const SITEMAP_UNZIPPED_BYTES = 16 * 1024 * 1024;

export async function collectSitemap(f: DocumentFetcher) {
  const robots = await robotsFile(f);
  const declared = declaredSitemaps(robots.parsed)[0];
  const source = declared ? 'robots' : 'default';
  const {
    published,
    document,
    exchange: ex,
  } = await f.open(declared ? declared.href : '/sitemap.xml', {
    maxBytes: SITEMAP_BYTES,
  });
  const unzipped = published && ex ? gunzipWithin(ex.body, SITEMAP_UNZIPPED_BYTES) : null;
  const parsed = ex && !ex.truncated && unzipped?.bytes ? parseSitemap(unzipped.bytes, ex.url) : null;
  return {
    published,
    source,
    document,
    gzip: unzipped?.gzip ?? null,
    uncompressed_bytes: unzipped?.bytes?.length ?? null,
    well_formed: parsed?.wellFormed ?? null,
    xml_error: parsed?.xmlError ?? null,
    root: parsed?.root ?? null,
    namespace: parsed?.namespace ?? null,
    entry_count: parsed?.entryCount ?? null,
    loc_missing: parsed?.locMissing ?? null,
    loc_invalid: parsed?.locInvalid ?? null,
    off_host: parsed?.offHost ?? null,
    lastmod_count: parsed?.lastmodCount ?? null,
    lastmod_invalid: parsed?.lastmodInvalid ?? null,
    lastmod_latest: parsed?.lastmodLatest ?? null,
  };
}
