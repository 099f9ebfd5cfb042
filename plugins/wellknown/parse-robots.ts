// robots.txt per RFC 9309: groups of user-agent lines with their allow/disallow rules, plus the other records
// agents read (Sitemap, Crawl-delay, Content-Signal, Content-Usage, License). Lines are read as Google's reference
// parser reads them where it is more lenient than the RFC's grammar (a space for the colon, misspelt keys), and
// each such line is reported. Pure: bytes in, structure out; it never throws, whatever the bytes. Access decisions
// live in robots-access.ts.
import { decodeUtf8, splitLines } from './text.ts';
import { SPACE_OR_TAB, trimOf } from '../../src/lib/trim.ts';

/** RFC 9309 section 2.5: crawlers must parse at least 500 KiB; what lies beyond may be ignored. */
export const ROBOTS_PARSE_LIMIT_BYTES = 500 * 1024;

export type RobotsErrorCode =
  | 'missing_separator'
  | 'whitespace_separator'
  | 'misspelt_key'
  | 'rule_outside_group'
  | 'invalid_user_agent'
  | 'invalid_path'
  | 'invalid_crawl_delay';

/** The RFC 9309 section 2.2 production each error breaks (Crawl-delay is no RFC record: its own name). */
export const ROBOTS_ERROR_PRODUCTION: Record<RobotsErrorCode, string> = {
  missing_separator: 'rule',
  whitespace_separator: 'rule',
  misspelt_key: 'rule',
  rule_outside_group: 'group',
  invalid_user_agent: 'product-token',
  invalid_path: 'path-pattern',
  invalid_crawl_delay: 'crawl-delay',
};

export interface RobotsParseError {
  line: number;
  code: RobotsErrorCode;
  /** The ABNF production the line breaks. */
  production: string;
  /** The line as written (comment removed), cut to VALUE_LIMIT characters. */
  value: string;
}

export interface RobotsRule {
  kind: 'allow' | 'disallow';
  /** The path pattern as written (comments and surrounding space removed). */
  pattern: string;
  line: number;
}

export interface RobotsGroup {
  /** Line of the group's first user-agent line. */
  line: number;
  /** Product tokens, lower-cased (matching is case-insensitive), `*` for the fallback group. */
  userAgents: string[];
  rules: RobotsRule[];
  /** The first Crawl-delay of the group, in seconds. */
  crawlDelay: number | null;
}

/** A record that sits inside a group (or before any group, then `group` is null). */
export interface RobotsRecord {
  line: number;
  /** Index into `groups`. */
  group: number | null;
  value: string;
}

export interface ParsedRobots {
  bom: boolean;
  utf8Valid: boolean;
  /** Lines read (within the parse limit). */
  lines: number;
  /** Those lines as sent, without their line breaks: what an excerpt quotes (never an observation itself). */
  text: string[];
  /** Lines of the form `key: value` whose key this parser does not know. */
  unknownLines: number;
  /** Those keys, lower-cased, sorted, unique. */
  unknownKeys: string[];
  /** The lines of those records, in order. */
  unknownLineNumbers: number[];
  errors: RobotsParseError[];
  groups: RobotsGroup[];
  sitemaps: string[];
  /** The line of each Sitemap record, in the order of `sitemaps`. */
  sitemapLines: number[];
  contentSignals: RobotsRecord[];
  contentUsage: RobotsRecord[];
  licenses: string[];
}

// RFC 9309's identifier: 1*(%x2D / %x41-5A / %x5F / %x61-7A), letters, "-" and "_" only. A value outside it
// (`Sogou web spider`, `AI2Bot`, `Googlebot/2.1`) is reported, yet still names the crawler its leading run of
// token characters spells, digits included, as Google's parser and others match it.
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;
const LEADING_TOKEN = /^[A-Za-z0-9_-]+/;
const VALUE_LIMIT = 200;
const DELAY = /^\d+(?:\.\d+)?$/;

/**
 * Misspellings Google's reference parser reads as the key they miss (robots.cc, KeyIsUserAgent, KeyIsDisallow,
 * KeyIsSitemap; Allow has none): a line so written is applied by Googlebot, and reported as `misspelt_key`.
 */
const KEY_TYPOS: Record<string, string> = {
  useragent: 'user-agent',
  'user agent': 'user-agent',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  diasllow: 'disallow',
  disallaw: 'disallow',
  'site-map': 'sitemap',
};

/**
 * A record's key (lower-cased, a misspelling read as the key it misses) and value, with the liberties taken to read
 * it. RFC 9309 needs the ":"; Google's parser, when a line has none, takes whitespace in its stead if the line is
 * exactly two words (`Disallow /tmp`), and drops any other line without a colon.
 */
function readRecord(line: string): { key: string; value: string; liberties: RobotsErrorCode[] } | null {
  const colon = line.indexOf(':');
  const words =
    colon < 0
      ? line.split(/[ \t]+/)
      : [trimOf(line.slice(0, colon), SPACE_OR_TAB), trimOf(line.slice(colon + 1), SPACE_OR_TAB)];
  if (words.length !== 2) return null;
  const liberties: RobotsErrorCode[] = colon < 0 ? ['whitespace_separator'] : [];
  const written = words[0]!.toLowerCase();
  const key = KEY_TYPOS[written] ?? written;
  if (key !== written) liberties.push('misspelt_key');
  return { key, value: words[1]!, liberties };
}

/** Bytes beyond the parse limit are not read; the line the limit cuts through is dropped. */
function withinLimit(bytes: Uint8Array): { text: string; utf8Valid: boolean; bom: boolean; cut: boolean } {
  const cut = bytes.length > ROBOTS_PARSE_LIMIT_BYTES;
  const decoded = decodeUtf8(cut ? bytes.subarray(0, ROBOTS_PARSE_LIMIT_BYTES) : bytes, cut);
  return { ...decoded, cut };
}

/** The lines to parse: within the limit, without the line it cuts or the empty one after a final newline. */
function readLines(bytes: Uint8Array): { lines: string[]; utf8Valid: boolean; bom: boolean } {
  const { text, utf8Valid, bom, cut } = withinLimit(bytes);
  const lines = splitLines(text);
  if (cut) lines.pop();
  else if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return { lines, utf8Valid, bom };
}

function emptyParse(bom: boolean, utf8Valid: boolean, text: string[]): ParsedRobots {
  const lists = {
    unknownKeys: [],
    unknownLineNumbers: [],
    errors: [],
    groups: [],
    sitemaps: [],
    sitemapLines: [],
    contentSignals: [],
    contentUsage: [],
    licenses: [],
  };
  return { bom, utf8Valid, lines: text.length, text, unknownLines: 0, ...lists };
}

export function parseRobots(bytes: Uint8Array): ParsedRobots {
  const { lines, utf8Valid, bom } = readLines(bytes);
  const out = emptyParse(bom, utf8Valid, lines);
  const unknownKeys = new Set<string>();
  let current: RobotsGroup | null = null;
  // A user-agent line joins the current group until the group has a member line; then it starts a new one.
  let members = 0;
  // The current group's user agents, kept apart so that a repeat is found without searching the group's list.
  let agents = new Set<string>();
  let line = '';
  const error = (n: number, code: RobotsErrorCode) =>
    out.errors.push({ line: n, code, production: ROBOTS_ERROR_PRODUCTION[code], value: line.slice(0, VALUE_LIMIT) });
  // The group a member line belongs to, counting the line as one of its members; outside any group, an error.
  const memberOf = (n: number): RobotsGroup | null => {
    if (current) members++;
    else error(n, 'rule_outside_group');
    return current;
  };

  lines.forEach((raw, i) => {
    const n = i + 1;
    const hash = raw.indexOf('#');
    line = trimOf(hash >= 0 ? raw.slice(0, hash) : raw, SPACE_OR_TAB);
    if (line === '') return;
    const record = readRecord(line);
    if (!record) {
      error(n, 'missing_separator');
      return;
    }
    for (const code of record.liberties) error(n, code);
    const { key, value } = record;
    switch (key) {
      case 'user-agent': {
        if (!current || members > 0) {
          current = { line: n, userAgents: [], rules: [], crawlDelay: null };
          out.groups.push(current);
          members = 0;
          agents = new Set();
        }
        const valid = value === '*' || PRODUCT_TOKEN.test(value);
        if (!valid) error(n, 'invalid_user_agent');
        // An invalid value still names the crawler its leading token spells (`Googlebot/2.1` -> googlebot).
        const token = value === '*' ? '*' : (LEADING_TOKEN.exec(value)?.[0] ?? '').toLowerCase();
        if (token && !agents.has(token)) {
          agents.add(token);
          current.userAgents.push(token);
        }
        return;
      }
      case 'allow':
      case 'disallow': {
        const group = memberOf(n);
        if (!group) return;
        if (value !== '' && !value.startsWith('/') && !value.startsWith('*')) error(n, 'invalid_path');
        group.rules.push({ kind: key, pattern: value, line: n });
        return;
      }
      case 'crawl-delay': {
        const group = memberOf(n);
        if (!group) return;
        if (!DELAY.test(value)) error(n, 'invalid_crawl_delay');
        else if (group.crawlDelay === null) group.crawlDelay = Number(value);
        return;
      }
      case 'content-signal':
      case 'content-usage': {
        // Both attach to the group they sit in; outside any group they still state a site-wide preference.
        if (current) members++;
        const record = { line: n, group: current ? out.groups.length - 1 : null, value };
        (key === 'content-signal' ? out.contentSignals : out.contentUsage).push(record);
        return;
      }
      case 'sitemap':
      case 'license':
        (key === 'sitemap' ? out.sitemaps : out.licenses).push(value);
        if (key === 'sitemap') out.sitemapLines.push(n);
        return;
      default:
        out.unknownLines = out.unknownLineNumbers.push(n);
        unknownKeys.add(key);
    }
  });
  out.unknownKeys = [...unknownKeys].sort();
  return out;
}
