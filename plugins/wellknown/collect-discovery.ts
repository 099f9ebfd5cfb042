// The discovery facet: the home page's Link response header (RFC 8288), which lets agents find resources
// without parsing HTML, and how the site answers a well-known path that does not exist.
import { parseLinkHeader } from './parse-link-header.ts';
import { responseFacts, type DocumentFetcher } from '../shared/fetch-document.ts';

/** The body of the home page is not needed here; the http probe reads it. */
const HOME_BYTES = 16 * 1024;

export async function collectDiscovery(f: DocumentFetcher) {
  const [home, notFound] = await Promise.all([f.fetch('/', { maxBytes: HOME_BYTES }), f.notFound()]);
  const header = home.exchange?.headers['link'];
  const parsed = home.exchange ? parseLinkHeader(header ?? '', home.exchange.url) : null;
  return {
    home: responseFacts(home, null),
    link_header: home.exchange ? header !== undefined : null,
    links: parsed?.links ?? null,
    link_rels: parsed ? [...new Set(parsed.links.flatMap((l) => l.rel))].sort() : null,
    link_parse_errors: parsed ? parsed.problems.filter((p) => p.dropped).length : null,
    link_problems: parsed?.problems ?? null,
    unknown_well_known: responseFacts(notFound, null),
  };
}
