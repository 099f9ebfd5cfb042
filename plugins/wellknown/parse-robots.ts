// robots.txt per RFC 9309: groups of user-agent lines with their allow/disallow rules, plus the other records
// agents read (Sitemap, Crawl-delay, Content-Signal, Content-Usage, License). Pure: bytes in, structure out;
// it never throws, whatever the bytes. Access decisions live in robots-access.ts.
import { decodeUtf8, splitLines } from './text.ts';

/** RFC 9309 section 2.5: crawlers must parse at least 500 KiB; what lies beyond may be ignored. */
export const ROBOTS_PARSE_LIMIT_BYTES = 500 * 1024;

export type RobotsErrorCode =
  'missing_separator' | 'rule_outside_group' | 'invalid_user_agent' | 'invalid_path' | 'invalid_crawl_delay';

export interface RobotsParseError {
  line: number;
  code: RobotsErrorCode;
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
  /** Lines of the form `key: value` whose key this parser does not know. */
  unknownLines: number;
  /** Those keys, lower-cased, sorted, unique. */
  unknownKeys: string[];
  errors: RobotsParseError[];
  groups: RobotsGroup[];
  sitemaps: string[];
  contentSignals: RobotsRecord[];
  contentUsage: RobotsRecord[];
  licenses: string[];
}

// RFC 9309's identifier is letters, "-" and "_"; digits are accepted too because vendors publish tokens with
// them (AI2Bot) and crawlers match those lines.
const PRODUCT_TOKEN = /^[A-Za-z0-9_-]+$/;
const LEADING_TOKEN = /^[A-Za-z0-9_-]+/;
const DELAY = /^\d+(?:\.\d+)?$/;

/** Bytes beyond the parse limit are not read; the line the limit cuts through is dropped. */
function withinLimit(bytes: Uint8Array): { text: string; utf8Valid: boolean; bom: boolean; cut: boolean } {
  const cut = bytes.length > ROBOTS_PARSE_LIMIT_BYTES;
  const decoded = decodeUtf8(cut ? bytes.subarray(0, ROBOTS_PARSE_LIMIT_BYTES) : bytes, cut);
  return { ...decoded, cut };
}

export function parseRobots(bytes: Uint8Array): ParsedRobots {
  const { text, utf8Valid, bom, cut } = withinLimit(bytes);
  const lines = splitLines(text);
  if (cut) lines.pop();
  else if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();

  const out: ParsedRobots = {
    bom,
    utf8Valid,
    lines: lines.length,
    unknownLines: 0,
    unknownKeys: [],
    errors: [],
    groups: [],
    sitemaps: [],
    contentSignals: [],
    contentUsage: [],
    licenses: [],
  };
  const unknownKeys = new Set<string>();
  let current: RobotsGroup | null = null;
  // A user-agent line joins the current group until the group has a member line; then it starts a new one.
  let members = 0;

  const inGroup = (n: number): RobotsGroup | null => {
    if (current) return current;
    out.errors.push({ line: n, code: 'rule_outside_group' });
    return null;
  };

  lines.forEach((raw, i) => {
    const n = i + 1;
    const hash = raw.indexOf('#');
    const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (line === '') return;
    const colon = line.indexOf(':');
    if (colon < 0) {
      out.errors.push({ line: n, code: 'missing_separator' });
      return;
    }
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    switch (key) {
      case 'user-agent': {
        if (!current || members > 0) {
          current = { line: n, userAgents: [], rules: [], crawlDelay: null };
          out.groups.push(current);
          members = 0;
        }
        const valid = value === '*' || PRODUCT_TOKEN.test(value);
        if (!valid) out.errors.push({ line: n, code: 'invalid_user_agent' });
        // An invalid value still names the crawler its leading token spells (`Googlebot/2.1` -> googlebot).
        const token = value === '*' ? '*' : (LEADING_TOKEN.exec(value)?.[0] ?? '').toLowerCase();
        if (token && !current.userAgents.includes(token)) current.userAgents.push(token);
        return;
      }
      case 'allow':
      case 'disallow': {
        const group = inGroup(n);
        if (!group) return;
        members++;
        if (value !== '' && !value.startsWith('/') && !value.startsWith('*'))
          out.errors.push({ line: n, code: 'invalid_path' });
        group.rules.push({ kind: key, pattern: value, line: n });
        return;
      }
      case 'crawl-delay': {
        const group = inGroup(n);
        if (!group) return;
        members++;
        if (!DELAY.test(value)) out.errors.push({ line: n, code: 'invalid_crawl_delay' });
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
        out.sitemaps.push(value);
        return;
      case 'license':
        out.licenses.push(value);
        return;
      default:
        out.unknownLines++;
        unknownKeys.add(key);
    }
  });
  out.unknownKeys = [...unknownKeys].sort();
  return out;
}
