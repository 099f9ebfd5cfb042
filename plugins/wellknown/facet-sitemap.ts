// The sitemap facet: the first sitemap robots.txt declares (else /sitemap.xml), fetched once within a cap,
// gunzipped when it is a .gz file, and parsed. A body cut at the cap is not judged for well-formedness.
import { declaredSitemaps, robotsFile } from './facet-robots.ts';
import { parseSitemap } from './parse-sitemap.ts';
import { gunzipWithin, isSuccess, type Fetcher } from './fetch-document.ts';

const SITEMAP_BYTES = 2 * 1024 * 1024;
/** Decompressed size read from a gzip sitemap; a larger one is reported with unknown structure. */
const SITEMAP_UNZIPPED_BYTES = 16 * 1024 * 1024;

export async function collectSitemap(f: Fetcher) {
  const robots = await robotsFile(f);
  const declared = declaredSitemaps(robots.parsed)[0];
  const source = declared ? 'robots' : 'default';
  const fetched = await f.get(declared ? declared.href : '/sitemap.xml', SITEMAP_BYTES);
  const document = await f.document(fetched);
  const ex = fetched.exchange;
  const usable = isSuccess(document.status) && ex !== null && !ex.truncated;
  const unzipped = ex && isSuccess(document.status) ? gunzipWithin(ex.body, SITEMAP_UNZIPPED_BYTES) : null;
  const parsed = usable && unzipped?.bytes ? parseSitemap(unzipped.bytes, ex.url) : null;
  return {
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
