// The robots facet: robots.txt fetched and parsed, and the RFC 9309 access of every AI crawler token to the
// paths agents need. Access follows section 2.3.1: a 4xx file allows everything, a 5xx or network failure
// disallows everything, more than five redirects count as unavailable.
import { AI_CRAWLER_TOKENS, PROBED_PATHS, type CrawlerToken } from './ai-crawlers.ts';
import { decide, type Access, type Decision, type GroupMatch } from './robots-access.ts';
import { lineExcerpt, type LinePointer } from '../shared/line-excerpt.ts';
import { parseRobots, ROBOTS_PARSE_LIMIT_BYTES, type ParsedRobots } from './parse-robots.ts';
import { isSuccess, type DocumentFacts, type DocumentFetcher } from '../shared/fetch-document.ts';
import { computed } from '../shared/computed.ts';

export type Availability = 'available' | 'unavailable' | 'unreachable';

export interface RobotsFile {
  published: boolean;
  document: DocumentFacts;
  availability: Availability;
  /** The rules crawlers apply: any 2xx body is parsed, whatever it holds (RFC 9309 section 2.3.1.1). */
  parsed: ParsedRobots | null;
}

interface PathAccess {
  root: Decision;
  llms_txt: Decision;
  well_known: Decision;
  sitemap: Decision;
  group: GroupMatch;
}

/** One byte past the parse limit, so a file over the limit is seen to be over it. */
const ROBOTS_FETCH_BYTES = ROBOTS_PARSE_LIMIT_BYTES + 1;

/** The robots.txt file, fetched and parsed once per scan for every facet that reads it. */
export const robotsFile = computed(async (f: DocumentFetcher): Promise<RobotsFile> => {
  const { published, document, exchange } = await f.open('/robots.txt', { maxBytes: ROBOTS_FETCH_BYTES });
  const availability = availabilityOf(document);
  const parsed = availability === 'available' && exchange ? parseRobots(exchange.body) : null;
  return { published, document, availability, parsed };
});

function availabilityOf(doc: DocumentFacts): Availability {
  if (isSuccess(doc.status)) return 'available';
  if (doc.error === 'too_many_redirects') return 'unavailable';
  if (doc.status === null || doc.status >= 500) return 'unreachable';
  return 'unavailable';
}

/** Absolute http(s) sitemap URLs declared in the file, in order. */
export function declaredSitemaps(parsed: ParsedRobots | null): URL[] {
  const out: URL[] = [];
  for (const value of parsed?.sitemaps ?? []) {
    try {
      const url = new URL(value);
      if (url.protocol === 'https:' || url.protocol === 'http:') out.push(url);
    } catch {
      // not an absolute URL: the sitemaps list keeps it as written, the rules judge it
    }
  }
  return out;
}

type ProbedPath = 'root' | 'llms_txt' | 'well_known' | 'sitemap';

/** The paths whose access the facts report, by the name the facts give them. */
const probedPaths = (sitemapPath: string): [ProbedPath, string][] => [
  ['root', PROBED_PATHS.root],
  ['llms_txt', PROBED_PATHS.llms_txt],
  ['well_known', PROBED_PATHS.well_known],
  ['sitemap', sitemapPath],
];

function accessOf(file: RobotsFile, token: string, sitemapPath: string): PathAccess {
  if (!file.parsed) {
    const d: Decision = file.availability === 'unreachable' ? 'disallow' : 'allow';
    return { root: d, llms_txt: d, well_known: d, sitemap: d, group: 'none' };
  }
  const decided = probedPaths(sitemapPath).map(([name, path]) => [name, decide(file.parsed!, token, path)] as const);
  const access = Object.fromEntries(decided.map(([name, a]) => [name, a.decision])) as Record<ProbedPath, Decision>;
  return { ...access, group: decided[0]![1].group };
}

/**
 * The lines the facts point at, most telling first: those that break the grammar, the rules that disallow a probed
 * path (with the first line of their group), the Sitemap records, the groups, the records no crawler knows.
 */
function* robotsPointers(p: ParsedRobots, sitemapPath: string): Generator<LinePointer> {
  for (const e of p.errors) yield ['parse_errors', e.line];
  const groupOfRule = new Map(p.groups.flatMap((g) => g.rules.map((r) => [r.line, g.line] as const)));
  const disallowed = function* (fact: string, a: Access): Generator<LinePointer> {
    if (a.decision !== 'disallow' || a.line === null) return;
    const head = groupOfRule.get(a.line);
    if (head !== undefined) yield [fact, head];
    yield [fact, a.line];
  };
  for (const [name, path] of probedPaths(sitemapPath)) yield* disallowed(`wildcard.${name}`, decide(p, '*', path));
  for (const token of AI_CRAWLER_TOKENS)
    for (const [, path] of probedPaths(sitemapPath)) yield* disallowed(`access.${token}`, decide(p, token, path));
  for (const line of p.sitemapLines) yield ['sitemaps', line];
  for (const g of p.groups) yield ['groups', g.line];
  for (const n of p.unknownLineNumbers) yield ['unknown_lines', n];
}

export async function collectRobots(f: DocumentFetcher) {
  const file = await robotsFile(f);
  // Access follows what crawlers parse; the file's own facts are those of a published file.
  const p = file.published ? file.parsed : null;
  const sameHost = declaredSitemaps(file.parsed).find((u) => u.hostname.toLowerCase() === f.domain);
  const sitemapPath = sameHost ? sameHost.pathname + sameHost.search : '/sitemap.xml';
  return {
    published: file.published,
    document: file.document,
    availability: file.availability,
    bom: p?.bom ?? null,
    utf8_valid: p?.utf8Valid ?? null,
    lines: p?.lines ?? null,
    unknown_lines: p?.unknownLines ?? null,
    unknown_keys: p?.unknownKeys ?? null,
    parse_errors: p?.errors ?? null,
    groups:
      p?.groups.map((g) => ({
        line: g.line,
        user_agents: g.userAgents,
        allow_rules: g.rules.filter((r) => r.kind === 'allow' && r.pattern !== '').length,
        disallow_rules: g.rules.filter((r) => r.kind === 'disallow' && r.pattern !== '').length,
        crawl_delay: g.crawlDelay,
      })) ?? null,
    sitemaps: p?.sitemaps ?? null,
    sitemap_path: sitemapPath,
    // Every token listed is one the schema names (ai-crawlers.ts); ajv holds that the list names them all.
    access: Object.fromEntries(AI_CRAWLER_TOKENS.map((t) => [t, accessOf(file, t, sitemapPath)])) as Record<
      CrawlerToken,
      PathAccess
    >,
    wildcard: accessOf(file, '*', sitemapPath),
    excerpt: p ? lineExcerpt(p.text, robotsPointers(p, sitemapPath)) : null,
  };
}
