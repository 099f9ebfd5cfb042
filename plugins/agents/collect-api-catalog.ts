// The api_catalog facet: the RFC 9727 API catalog, a linkset.
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import { described, json } from './discovery-document.ts';
import { inspectLinkset } from './inspect-catalogs.ts';

export async function collectApiCatalog(f: DocumentFetcher) {
  const doc = await json(f, '/.well-known/api-catalog', 'application/linkset+json, application/json;q=0.9');
  const contentType = doc.exchange?.headers['content-type'] ?? '';
  return described(doc, {
    profile: /;\s*profile\s*=\s*"?([^";]+)"?/i.exec(contentType)?.[1] ?? null,
    ...inspectLinkset(doc.json, doc.facts.document.url),
  });
}
