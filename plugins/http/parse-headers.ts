// Response header values parsed into facts. Input maps have lower-cased names and repeated headers
// comma-joined (src/net contract); each function reads one header's grammar, cited at the function.
import { parseDictionary, parseItem, Token } from 'structured-headers';
import { Cursor, GrammarError, isToken, splitList } from '../../src/lib/http-grammar.ts';
import type { CacheControl, PermissionsPolicy } from './types.ts';
import { SPACE_OR_TAB, trimOf } from '../../src/lib/trim.ts';

export type HeaderMap = Readonly<Record<string, string>>;

export function header(headers: HeaderMap, name: string): string | null {
  return Object.hasOwn(headers, name) ? headers[name]! : null;
}

/** A header's value without OWS at its ends (RFC 9110 section 5.5); null when absent. */
export function trimmedHeader(headers: HeaderMap, name: string): string | null {
  const value = header(headers, name);
  return value === null ? null : trimOf(value, SPACE_OR_TAB);
}

/** One member of a list whose members are `token [ "=" ( token / quoted-string ) ]`. */
function tokenParameter(member: string, production: string): { name: string; value: string | null } {
  const cur = new Cursor(member);
  const name = cur.token();
  if (name === null) throw new GrammarError(production, `${JSON.stringify(member)} does not start with a token`);
  cur.skipOws();
  let value: string | null = null;
  if (cur.peek() === '=') {
    cur.pos += 1;
    cur.skipOws();
    value = cur.tokenOrQuoted(production);
    cur.skipOws();
  }
  if (!cur.done) throw new GrammarError(production, `unexpected ${JSON.stringify(member.slice(cur.pos))}`);
  return { name: name.toLowerCase(), value };
}

/**
 * Cache-Control (RFC 9111 section 5.2): `#cache-directive`, `cache-directive = token [ "=" ( token /
 * quoted-string ) ]`. Recipients accept both argument forms (section 5.2); when max-age repeats, the first counts
 * (section 4.2.1). A member that breaks the grammar is reported and left out.
 */
export function parseCacheControl(value: string | null): CacheControl | null {
  if (value === null) return null;
  const directives = new Set<string>();
  const errors: string[] = [];
  let maxAge: number | null = null;
  for (const member of splitList(value)) {
    try {
      const d = tokenParameter(member, 'cache-directive');
      directives.add(d.name);
      if (d.name === 'max-age' && maxAge === null) {
        if (d.value === null || !/^\d+$/.test(d.value))
          throw new GrammarError('delta-seconds', `max-age=${d.value ?? ''} is not 1*DIGIT`);
        maxAge = Math.min(Number(d.value), Number.MAX_SAFE_INTEGER);
      }
    } catch (err) {
      if (!(err instanceof GrammarError)) throw err;
      errors.push(err.message);
    }
  }
  return { raw: value, directives: [...directives].sort(), max_age: maxAge, parse_errors: errors };
}

/** Vary (RFC 9110 section 12.5.5): `#( "*" / field-name )`, lower-cased, de-duplicated and sorted. */
export function varyList(value: string | null): string[] {
  if (value === null) return [];
  const names = splitList(value).filter((m) => m === '*' || isToken(m));
  return [...new Set(names.map((m) => m.toLowerCase()))].sort();
}

/**
 * Alt-Svc (RFC 7838 section 3): `clear / 1#alt-value`, `alt-value = alternative *( OWS ";" OWS parameter )`,
 * `alternative = protocol-id "=" alt-authority`, `alt-authority = quoted-string`. A value that breaks the grammar
 * is ignored whole, as clients do; `clear` advertises nothing.
 */
export function parseAltSvc(value: string | null): { protocols: string[]; error: string | null } {
  if (value === null || trimOf(value, SPACE_OR_TAB) === 'clear') return { protocols: [], error: null };
  const ids = new Set<string>();
  try {
    for (const member of splitList(value)) {
      const [alternative = '', ...parameters] = member.split(';');
      const cur = new Cursor(trimOf(alternative, SPACE_OR_TAB));
      const id = cur.token();
      if (id === null || cur.peek() !== '=') throw new GrammarError('alternative', `${JSON.stringify(member)}`);
      cur.pos += 1;
      if (cur.peek() !== '"') throw new GrammarError('alt-authority', `${JSON.stringify(member)} is not quoted`);
      if (!/:\d*$/.test(cur.quotedString('alt-authority')))
        throw new GrammarError('alt-authority', `${JSON.stringify(member)} has no ":" port`);
      if (!cur.done) throw new GrammarError('alt-value', `unexpected text after ${JSON.stringify(alternative)}`);
      for (const p of parameters)
        if (tokenParameter(trimOf(p, SPACE_OR_TAB), 'parameter').value === null)
          throw new GrammarError('parameter', `${JSON.stringify(trimOf(p, SPACE_OR_TAB))} has no "=" value`);
      ids.add(decodeURIComponent(id).toLowerCase());
    }
  } catch (err) {
    if (!(err instanceof GrammarError || err instanceof URIError)) throw err;
    return { protocols: [], error: err instanceof GrammarError ? err.message : `protocol-id: ${err.message}` };
  }
  return { protocols: [...ids].sort(), error: null };
}

const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(
  `^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);
const MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec';

function utc(year: number, month: string, day: number, h: string, m: string, s: string): string | null {
  const ms = Date.UTC(year, MONTHS.indexOf(month) / 3, day, Number(h), Number(m), Number(s));
  const d = new Date(ms);
  const exists = d.getUTCDate() === day && Number(h) < 24 && Number(m) < 60 && Number(s) < 61;
  return exists ? d.toISOString() : null;
}

/**
 * An HTTP-date (RFC 9110 section 5.6.7) as ISO 8601 UTC: IMF-fixdate, or one of the two obsolete forms recipients
 * must accept. A two-digit rfc850 year more than 50 years after `observedAt` is the latest such year in the past.
 */
export function httpDate(value: string | null, observedAt: string): string | null {
  if (value === null) return null;
  const v = trimOf(value, SPACE_OR_TAB);
  let m = IMF_FIXDATE.exec(v);
  if (m) return utc(Number(m[4]), m[3]!, Number(m[2]), m[5]!, m[6]!, m[7]!);
  m = RFC850_DATE.exec(v);
  if (m) {
    const now = new Date(observedAt).getUTCFullYear();
    let year = Math.floor(now / 100) * 100 + Number(m[4]);
    if (year > now + 50) year -= 100;
    return utc(year, m[3]!, Number(m[2]), m[5]!, m[6]!, m[7]!);
  }
  m = ASCTIME_DATE.exec(v);
  if (m) return utc(Number(m[7]), m[2]!, Number(trimOf(m[3]!, SPACE_OR_TAB)), m[4]!, m[5]!, m[6]!);
  return null;
}

const REFERRER_POLICIES = new Set([
  'no-referrer',
  'no-referrer-when-downgrade',
  'same-origin',
  'origin',
  'strict-origin',
  'origin-when-cross-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
]);

/**
 * Referrer-Policy (W3C Referrer Policy sections 4.1 and 8.1): `1#policy-token`; the last token that is a known
 * policy wins, unknown ones are skipped. A value whose members are not tokens breaks the list and sets no policy.
 */
export function referrerPolicy(value: string | null): string | null {
  if (value === null) return null;
  const tokens = splitList(value);
  if (!tokens.every((t) => /^[A-Za-z0-9-]+$/.test(t))) return null;
  return (
    tokens
      .map((t) => t.toLowerCase())
      .filter((t) => REFERRER_POLICIES.has(t))
      .at(-1) ?? null
  );
}

/**
 * Permissions-Policy (W3C Permissions Policy section 5.2) is a Structured Fields dictionary (RFC 9651); its keys
 * are the feature names.
 */
export function permissionsPolicy(value: string | null): PermissionsPolicy {
  if (value === null) return { raw: null, features: [], parse_error: null };
  try {
    return { raw: value, features: [...parseDictionary(value).keys()].sort(), parse_error: null };
  } catch (err) {
    return { raw: value, features: [], parse_error: (err as Error).message };
  }
}

/**
 * X-Content-Type-Options (Fetch, "determine nosniff"): the first member of the comma-split value, lower-cased.
 * Parameters are not part of the grammar, so `nosniff; x` is not nosniff.
 */
export function contentTypeOptions(value: string | null): string | null {
  if (value === null) return null;
  return splitList(value)[0]?.toLowerCase() ?? '';
}

/**
 * COOP and COEP (HTML sections 7.1.3 and 7.1.4): a Structured Fields item whose value is a token; parameters
 * (report-to) are dropped. A value that is not one item (a repeated header, a string) sets no policy: null.
 */
export function structuredToken(value: string | null): string | null {
  if (value === null) return null;
  try {
    // BareItem names DOM types this project does not load; only the Token check matters here.
    const bare: unknown = parseItem(value)[0];
    return bare instanceof Token ? bare.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Cross-Origin-Resource-Policy (Fetch section 3.8): exactly `same-origin`, `same-site` or `cross-origin`,
 * case-sensitive; anything else (a repeated header included) is ignored by browsers: null.
 */
export function resourcePolicy(value: string | null): string | null {
  const v = value === null ? null : trimOf(value, SPACE_OR_TAB);
  return v === 'same-origin' || v === 'same-site' || v === 'cross-origin' ? v : null;
}

/** X-Frame-Options (HTML section 7.1.7): the set of lower-cased values; one value stays, several stay joined. */
export function frameOptions(value: string | null): string | null {
  if (value === null) return null;
  const values = [...new Set(splitList(value).map((v) => v.toLowerCase()))].sort();
  return values.join(', ');
}

/** The names from `candidates` present in the map, sorted. */
export function presentHeaders(headers: HeaderMap, candidates: readonly string[]): string[] {
  return candidates.filter((name) => Object.hasOwn(headers, name)).sort();
}
