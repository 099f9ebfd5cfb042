// The openapi facet: the first OpenAPI description published at the paths agents try.
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import { described, json, JSON_ACCEPT, type JsonDocument } from './discovery-document.ts';
import { inspectOpenApi } from './inspect-openapi.ts';

const OPENAPI_BYTES = 2 * 1024 * 1024;

/** OpenAPI has no registered location; these are the paths agents and scanners try, in this order. */
const OPENAPI_PATHS = ['/openapi.json', '/.well-known/openapi.json'];

export async function collectOpenapi(f: DocumentFetcher) {
  let found: JsonDocument | null = null;
  for (const path of OPENAPI_PATHS) {
    const doc = await json(f, path, JSON_ACCEPT, OPENAPI_BYTES);
    found ??= doc;
    if (doc.facts.published) {
      found = doc;
      break;
    }
  }
  const doc = found!;
  return described(doc, inspectOpenApi(doc.json));
}
