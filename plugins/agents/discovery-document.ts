// The discovery documents the agents facets read: fetched the way verifiers are told to, parsed once, and described
// as facts with the lines those facts point at.
import type { HttpExchange } from '../../src/net/types.ts';
import type { DocumentFacts, DocumentFetcher } from '../shared/fetch-document.ts';
import { errorExcerpt, jsonExcerpt, JsonLinesError, parseJsonLines, type JsonLines } from '../shared/json-lines.ts';
import type { ExcerptLine } from '../shared/line-excerpt.ts';
import { memberPointers, privateValues } from './member-pointers.ts';

export const JSON_ACCEPT = 'application/json, */*;q=0.1';
const TEXT_ACCEPT = 'text/markdown, text/plain;q=0.9, */*;q=0.1';

export const JWKS_ACCEPT = 'application/jwk-set+json, application/json;q=0.9';

/** Cap for discovery documents; OpenAPI descriptions get more room (collect-openapi.ts). */
const DOCUMENT_BYTES = 256 * 1024;

/**
 * A JSON discovery document: its facts, the parsed value the inspectors read (undefined unless parsed), and for
 * the excerpt, the parse with its lines, or the lines and the line where it stopped being JSON.
 */
export interface JsonDocument {
  facts: { published: boolean; document: DocumentFacts; json_parsed: boolean; json_error: string | null };
  json: unknown;
  exchange: HttpExchange | null;
  parse: JsonLines | JsonLinesError | null;
}

/**
 * Discovery documents are fetched the way verifiers are told to: no credentials, no redirects followed (a 3xx is
 * what the site answered), a size cap. Only a published body is parsed, once, keeping where each member sits.
 */
export async function json(f: DocumentFetcher, path: string, accept = JSON_ACCEPT, maxBytes = DOCUMENT_BYTES) {
  const { published, document, exchange } = await f.open(path, { accept, maxBytes, redirects: 'record' });
  const out: JsonDocument = {
    facts: { published, document, json_parsed: false, json_error: null },
    json: undefined,
    exchange,
    parse: null,
  };
  if (published && exchange) {
    try {
      out.parse = parseJsonLines(exchange.body.toString('utf8').replace(/^\uFEFF/, ''));
      out.json = out.parse.value;
      out.facts.json_parsed = true;
    } catch (err) {
      if (!(err instanceof JsonLinesError)) throw err;
      out.parse = err;
      out.facts.json_error = err.message;
    }
  }
  return out;
}

/**
 * The lines of a published document its facts point at: where it stops being JSON, or the members they name, the
 * values of a key's private members redacted.
 */
function excerptOf(doc: JsonDocument, facts: object): ExcerptLine[] | null {
  if (!doc.facts.published) return null;
  const parse = doc.parse;
  if (parse instanceof JsonLinesError) return errorExcerpt(parse, ['json_error', 'json_parsed']);
  if (!parse) return [];
  const all = { ...doc.facts, ...facts };
  return jsonExcerpt(parse, memberPointers(all, parse.value), privateValues(all, parse.value));
}

/** A document's facts, what its inspector found in it, and the lines those point at. */
export function described<T extends object>(doc: JsonDocument, facts: T) {
  return { ...doc.facts, ...facts, excerpt: excerptOf(doc, facts) };
}

export async function text(f: DocumentFetcher, path: string) {
  const { published, document } = await f.open(path, { accept: TEXT_ACCEPT, redirects: 'record' });
  return { published, document };
}
