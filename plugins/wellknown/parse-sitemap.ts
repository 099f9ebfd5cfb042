// A sitemap per the sitemaps.org protocol 0.9: well-formedness by a real XML parser (fast-xml-parser), the root
// element and its namespace, and counts over the entries' `loc` and `lastmod` values. Counts, not lists: a
// sitemap may hold 50,000 entries and the facts a rule needs are how many are missing, invalid or off-host.
// The protocol's text format (one URL per line, "Other sitemap formats"), which Google reads too, is told apart
// from XML by its first line, and its lines are counted as locs.
import { gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeUtf8, splitLines } from './text.ts';
import { ASCII_WHITESPACE, XML_WHITESPACE, trimOf } from '../../src/lib/trim.ts';

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** sitemaps.org: a `loc` must be less than 2,048 characters. */
const LOC_MAX = 2047;

export interface ParsedSitemap {
  /** xml, or text: a body that does not open with markup and whose first line is an absolute http(s) URL. */
  format: 'xml' | 'text';
  /** Well-formed XML; null for a text sitemap. */
  wellFormed: boolean | null;
  /** The parser's message with its line, when not well-formed. */
  xmlError: string | null;
  /** Local name of the root element. */
  root: string | null;
  /** The namespace the root element is in. */
  namespace: string | null;
  /** `url` entries of a urlset, `sitemap` entries of a sitemapindex; null for another root. */
  entryCount: number | null;
  locMissing: number | null;
  /** Present but not an absolute http(s) URL under 2,048 characters. */
  locInvalid: number | null;
  /** Valid locs on another host than the sitemap's. */
  offHost: number | null;
  lastmodCount: number | null;
  /** Present but not a W3C Datetime. */
  lastmodInvalid: number | null;
  /** The latest valid lastmod, ISO 8601 UTC. */
  lastmodLatest: string | null;
  /** Entries whose loc names a sitemap file (`.xml` or `.xml.gz` path): in a urlset, an index written as one. */
  sitemapLikeLocs: number | null;
  /** A sitemapindex's valid child locs, in order, at most CHILDREN_KEPT. */
  children: readonly string[];
  /**
   * The lines a finding points at, for an excerpt (never an observation itself): where the XML stops being
   * well-formed; the root element; the entries without a loc, the locs that are invalid, off the host or name a
   * sitemap, the invalid lastmods; a text sitemap's lines that are no valid URL. At most EXCERPT_POINTERS per fact,
   * with the text's lines.
   */
  pointers: readonly { fact: SitemapFact; line: number }[];
  lines: readonly string[];
}

/** The facts a sitemap's lines are quoted for. */
export type SitemapFact =
  'xml_error' | 'root' | 'loc_missing' | 'loc_invalid' | 'off_host' | 'sitemap_like_locs' | 'lastmod_invalid';

/** Child sitemaps kept from one index: far more than any walk follows. */
const CHILDREN_KEPT = 1000;
const SITEMAP_PATH = /\.xml(?:\.gz)?$/i;

type XmlNode = Record<string, unknown>;

const W3C_DATETIME = /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?$/;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  // Where each element starts in the text, so a finding can quote its line.
  captureMetaData: true,
});
// The library declares the wrapper type `Symbol`; the value is a symbol.
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** The offset in the text where an element starts, as the parser recorded it. */
const startOf = (node: XmlNode): number | null => {
  const meta = (node as Record<symbol, { startIndex?: unknown } | undefined>)[META];
  return typeof meta?.startIndex === 'number' ? meta.startIndex : null;
};

/**
 * Line numbers of offsets, counting CRLF, CR and LF as splitLines does, without splitting the text until an
 * excerpt needs it; entries come in document order, so counting goes on from the last offset (and starts over
 * for an earlier one, such as a lastmod written before its loc).
 */
function lineCounter(text: string) {
  let at = 0;
  let line = 1;
  return (offset: number): number => {
    if (offset < at) [at, line] = [0, 1];
    for (; at < offset && at < text.length; at++) {
      const c = text.charCodeAt(at);
      if (c === 10 || (c === 13 && text.charCodeAt(at + 1) !== 10)) line++;
    }
    return line;
  };
}

/** Start tags of an entry's children, in any namespace prefix. */
const TAGS = { loc: /<(?:[A-Za-z_][\w.-]*:)?loc[\s/>]/g, lastmod: /<(?:[A-Za-z_][\w.-]*:)?lastmod[\s/>]/g };

/** The offset of the first `tag` element at or after `from`, or null. */
function tagAfter(text: string, tag: keyof typeof TAGS, from: number): number | null {
  const re = TAGS[tag];
  re.lastIndex = from;
  return re.exec(text)?.index ?? null;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

function prefixOf(name: string): string | null {
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(0, colon) : null;
}

/** Child elements of a node by local name (a sitemap may use a namespace prefix). */
function children(node: XmlNode, name: string): unknown[] {
  return Object.entries(node)
    .filter(([k]) => !k.startsWith('@_') && localName(k) === name)
    .flatMap(([, v]) => (Array.isArray(v) ? (v as unknown[]) : [v]));
}

function textOf(value: unknown): string | null {
  if (typeof value === 'string') return trimOf(value, XML_WHITESPACE);
  if (value !== null && typeof value === 'object' && typeof (value as XmlNode)['#text'] === 'string') {
    return trimOf((value as XmlNode)['#text'] as string, XML_WHITESPACE);
  }
  return value !== null && typeof value === 'object' ? '' : null;
}

function lastmodTime(value: string): number | null {
  if (!W3C_DATETIME.test(value)) return null;
  const t = Date.parse(value.length === 4 ? `${value}-01-01` : value.length === 7 ? `${value}-01` : value);
  return Number.isNaN(t) ? null : t;
}

function validLoc(loc: string): URL | null {
  if (loc.length > LOC_MAX) return null;
  try {
    const url = new URL(loc);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

const EMPTY_COUNTS = {
  entryCount: null,
  locMissing: null,
  locInvalid: null,
  offHost: null,
  lastmodCount: null,
  lastmodInvalid: null,
  lastmodLatest: null,
  sitemapLikeLocs: null,
  children: [],
  pointers: [],
  lines: [],
} as const;

/** Lines a sitemap's facts point at: more than an excerpt keeps, never the document. */
const EXCERPT_POINTERS = 16;

/** sitemaps.org's text format: every non-empty line a URL; no markup, no header, no footer. */
function textSitemap(text: string, host: string): ParsedSitemap | null {
  const all = splitLines(text);
  const numbered = all.map((l, i) => ({ loc: trimOf(l, ASCII_WHITESPACE), line: i + 1 })).filter((l) => l.loc !== '');
  const lines = numbered.map((l) => l.loc);
  if (lines.length === 0 || lines[0]!.startsWith('<') || validLoc(lines[0]!) === null) return null;
  const urls = lines.map(validLoc);
  const valid = urls.filter((u): u is URL => u !== null);
  const pointers = numbered
    .filter((_, i) => urls[i] === null)
    .slice(0, EXCERPT_POINTERS)
    .map((l) => ({ fact: 'loc_invalid' as const, line: l.line }));
  return {
    format: 'text',
    wellFormed: null,
    xmlError: null,
    root: null,
    namespace: null,
    ...EMPTY_COUNTS,
    entryCount: lines.length,
    locMissing: 0,
    locInvalid: lines.length - valid.length,
    offHost: valid.filter((u) => u.hostname.toLowerCase() !== host).length,
    sitemapLikeLocs: valid.filter((u) => SITEMAP_PATH.test(u.pathname)).length,
    pointers,
    lines: pointers.length ? all : [],
  };
}

export function parseSitemap(bytes: Uint8Array, sitemapUrl: string): ParsedSitemap {
  const text = decodeUtf8(bytes).text;
  const host = new URL(sitemapUrl).hostname.toLowerCase();
  const plain = textSitemap(text, host);
  if (plain) return plain;
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    return {
      format: 'xml',
      wellFormed: false,
      xmlError: `line ${valid.err.line}: ${valid.err.msg}`,
      root: null,
      namespace: null,
      ...EMPTY_COUNTS,
      pointers: [{ fact: 'xml_error', line: valid.err.line }],
      lines: splitLines(text),
    };
  }
  let doc: XmlNode;
  try {
    doc = parser.parse(text) as XmlNode;
  } catch (err) {
    const xmlError = (err as Error).message;
    return { format: 'xml', wellFormed: false, xmlError, root: null, namespace: null, ...EMPTY_COUNTS };
  }
  const rootName = Object.keys(doc).find((k) => !k.startsWith('?') && !k.startsWith('#') && !k.startsWith('!'));
  if (!rootName) {
    const xmlError = 'no root element';
    return { format: 'xml', wellFormed: false, xmlError, root: null, namespace: null, ...EMPTY_COUNTS };
  }
  const rootNode = ([doc[rootName]].flat()[0] ?? {}) as XmlNode;
  const prefix = prefixOf(rootName);
  const nsAttr = rootNode[prefix ? `@_xmlns:${prefix}` : '@_xmlns'];
  const root = localName(rootName);
  const namespace = typeof nsAttr === 'string' ? nsAttr : null;
  const base = { format: 'xml' as const, wellFormed: true, xmlError: null, root, namespace };
  const entryName = root === 'urlset' ? 'url' : root === 'sitemapindex' ? 'sitemap' : null;
  const { point, pointers } = linePointers(text);
  // The root element is quoted when it is not a sitemap's: another name, or outside the sitemap namespace.
  if (namespace !== SITEMAP_NAMESPACE || !entryName) point('root', startOf(rootNode));
  const entries = entryName ? readEntries(text, children(rootNode, entryName), root === 'urlset', host, point) : {};
  return { ...base, ...EMPTY_COUNTS, ...entries, pointers, lines: pointers.length ? splitLines(text) : [] };
}

type Point = (fact: SitemapFact, start: number | null, tag?: keyof typeof TAGS) => void;

/** Lines of `text` named by facts, at most EXCERPT_POINTERS per fact: an element's line, or its child `tag`'s. */
function linePointers(text: string): { point: Point; pointers: { fact: SitemapFact; line: number }[] } {
  const lineOf = lineCounter(text);
  const pointers: { fact: SitemapFact; line: number }[] = [];
  const perFact = new Map<SitemapFact, number>();
  const point: Point = (fact, start, tag) => {
    if (start === null || (perFact.get(fact) ?? 0) >= EXCERPT_POINTERS) return;
    perFact.set(fact, (perFact.get(fact) ?? 0) + 1);
    pointers.push({ fact, line: lineOf((tag !== undefined ? tagAfter(text, tag, start) : null) ?? start) });
  };
  return { point, pointers };
}

/** The counts over a urlset's or an index's entries, pointing at the lines of those a count counts as wrong. */
function readEntries(text: string, entries: unknown[], urlset: boolean, host: string, point: Point) {
  const counts = { entryCount: 0, locMissing: 0, locInvalid: 0, offHost: 0, lastmodCount: 0, lastmodInvalid: 0 };
  const links = { sitemapLikeLocs: 0, children: [] as string[] };
  let latest: number | null = null;
  for (const entry of entries) {
    counts.entryCount++;
    const node = (entry !== null && typeof entry === 'object' ? entry : {}) as XmlNode;
    const start = startOf(node);
    const loc = textOf(children(node, 'loc')[0]);
    if (loc === null || loc === '') {
      counts.locMissing++;
      point('loc_missing', start);
    } else {
      const url = validLoc(loc);
      if (!url) {
        counts.locInvalid++;
        point('loc_invalid', start, 'loc');
      } else {
        if (url.hostname.toLowerCase() !== host) {
          counts.offHost++;
          point('off_host', start, 'loc');
        }
        if (SITEMAP_PATH.test(url.pathname)) {
          links.sitemapLikeLocs++;
          if (urlset) point('sitemap_like_locs', start, 'loc');
        }
        if (!urlset && links.children.length < CHILDREN_KEPT) links.children.push(url.href);
      }
    }
    const lastmod = textOf(children(node, 'lastmod')[0]);
    if (lastmod !== null) {
      counts.lastmodCount++;
      const t = lastmodTime(lastmod);
      if (t === null) {
        counts.lastmodInvalid++;
        point('lastmod_invalid', start, 'lastmod');
      } else if (latest === null || t > latest) latest = t;
    }
  }
  return { ...counts, ...links, lastmodLatest: latest === null ? null : new Date(latest).toISOString() };
}

/** Bytes of a body that may be a gzip file (sitemap.xml.gz), decompressed within a cap; null beyond it. */
export function gunzipWithin(body: Buffer, maxBytes: number): { bytes: Buffer | null; gzip: boolean } {
  const gzip = body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
  if (!gzip) return { bytes: body, gzip };
  try {
    return { bytes: gunzipSync(body, { maxOutputLength: maxBytes }), gzip };
  } catch {
    return { bytes: null, gzip };
  }
}
