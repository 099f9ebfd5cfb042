// DMARC policy records, judged against both grammars in use: RFC 9989 sections 4.7-4.8 (the current standard,
// which obsoletes RFC 7489 and RFC 9091) and RFC 7489 sections 6.3-6.4 with RFC 9091's np (what receivers
// built before RFC 9989 still apply: p required and right after v, pct, ri, rf). Pure; whether the policy is
// strong enough is for the rules.
import type { DmarcParsed } from '../../src/lib/schema-types/observations/dns.ts';
import { SPACE_OR_TAB, trimEndOf, trimOf } from '../../src/lib/trim.ts';
import { parseTagList, tagValue, uriList, type TagList } from './parse-tags.ts';
import { parseUri } from '../shared/uri.ts';
import { normaliseName } from '../../src/lib/domain-name.ts';

export type DmarcFacts = DmarcParsed;

/** Selects DMARC records among TXT strings: a first tag "v" *WSP "=" *WSP "DMARC1" (RFC 9989 section 4.10). */
export const DMARC_VERSION = /^[vV][ \t]*=[ \t]*DMARC1[ \t]*(;|$)/;

/**
 * dmarc-tag = 1*ALPHA equals 1*dmarc-value, dmarc-value = %x20-3A / %x3C-7E (RFC 9989 section 4.8). HTAB is let
 * through here because the value rules of rua and ruf (dmarc-urilist) allow *WSP around their commas.
 */
const GRAMMAR = { tag: 'dmarc-tag', name: /^[A-Za-z]+$/, value: /^[\t\x20-\x3a\x3c-\x7e]+$/, spacedEquals: true };

const RFC9989_TAGS = new Set(['v', 'p', 'sp', 'np', 'psd', 't', 'adkim', 'aspf', 'rua', 'ruf', 'fo']);
const RFC7489_TAGS = new Set(['v', 'p', 'sp', 'np', 'adkim', 'aspf', 'rua', 'ruf', 'fo', 'rf', 'ri', 'pct']);

type Check = (value: string) => string | null;

const oneOf =
  (production: string, values: string[]): Check =>
  (v) =>
    values.includes(v.toLowerCase()) ? null : `breaks ${production}: not ${values.join(', ')}`;

/** dmarc-uri = URI (RFC 3986), "," and "!" encoded; the obsolete "!" size suffix is allowed (and, under RFC 7489, must fit 64 bits). */
function uriProblem(item: string, sizeFits64: boolean): string | null {
  const m = /^(.*?)(?:!(\d+)[kmgt]?)?$/i.exec(item)!;
  const uri = m[1]!;
  if (parseUri(uri) === null || uri.includes(',') || uri.includes('!'))
    return `"${item}" breaks dmarc-uri: not a URI (RFC 3986) with "," and "!" encoded`;
  if (sizeFits64 && m[2] !== undefined && BigInt(m[2]) >= 2n ** 64n)
    return `"${item}" breaks dmarc-uri: the size does not fit 64 bits`;
  return null;
}

const uriListCheck =
  (sizeFits64: boolean): Check =>
  (v) => {
    const problems = uriList(v).flatMap((item) => uriProblem(item, sizeFits64) ?? []);
    return problems.length === 0 ? null : problems.join('; ');
  };

/** dmarc-fo of RFC 9989: at most one of "0" and "1", and "d" and "s" at most once each, joined by ":". */
const fo9989: Check = (v) => {
  const items = v.split(':');
  const ok =
    items.every((x) => /^[01ds]$/i.test(x)) &&
    new Set(items.map((x) => x.toLowerCase())).size === items.length &&
    items.filter((x) => x === '0' || x === '1').length <= 1;
  return ok ? null : 'breaks dmarc-fo: 0 or 1 (not both), d and s, each at most once, joined by ":"';
};

/** dmarc-fo of RFC 7489: ( "0" / "1" / "d" / "s" ) *( *WSP ":" *WSP ( ... ) ). */
const fo7489: Check = (v) =>
  /^[01ds](?:[ \t]*:[ \t]*[01ds])*$/i.test(v) ? null : 'breaks dmarc-fo: 0, 1, d or s joined by ":"';

/**
 * dmarc-rfmt: Keyword *( *WSP ":" Keyword ), Keyword = Ldh-str (RFC 5321). Section 6.3 says the values MUST be
 * registered formats (only afrf is); receivers may ignore others, but the record breaks that requirement.
 */
const rf7489: Check = (v) => {
  // *WSP before each ":" only: white space after the last Keyword breaks it.
  const parts = v.split(':');
  const keywords = parts.map((k, i) => (i < parts.length - 1 ? trimEndOf(k, SPACE_OR_TAB) : k));
  if (!keywords.every((k) => /^[A-Za-z0-9-]*[A-Za-z0-9]$/.test(k)))
    return 'breaks dmarc-rfmt: Keywords (letters, digits, inner "-") joined by ":"';
  return keywords.every((k) => k.toLowerCase() === 'afrf') ? null : 'breaks dmarc-rfmt: only afrf is registered';
};

/** dmarc-ainterval = 1*DIGIT, a 32-bit unsigned integer (section 6.3). */
const ri7489: Check = (v) =>
  /^\d+$/.test(v) && BigInt(v) < 2n ** 32n ? null : 'breaks dmarc-ainterval: not a 32-bit unsigned integer';

/** dmarc-percent = 1*3DIGIT, an integer from 0 to 100 (section 6.3). */
const pct7489: Check = (v) =>
  /^\d{1,3}$/.test(v) && Number(v) <= 100 ? null : 'breaks dmarc-percent: not an integer from 0 to 100';

const REQUEST = oneOf('dmarc-request', ['none', 'quarantine', 'reject']);
const RORS = oneOf('dmarc-rors', ['r', 's']);
const SHARED: Record<string, Check> = { p: REQUEST, sp: REQUEST, np: REQUEST, adkim: RORS, aspf: RORS };
const RFC9989_VALUES: Record<string, Check> = {
  ...SHARED,
  t: oneOf('dmarc-yorn', ['y', 'n']),
  psd: oneOf('dmarc-psd', ['y', 'n', 'u']),
  rua: uriListCheck(false),
  ruf: uriListCheck(false),
  fo: fo9989,
};
const RFC7489_VALUES: Record<string, Check> = {
  ...SHARED,
  rua: uriListCheck(true),
  ruf: uriListCheck(true),
  fo: fo7489,
  rf: rf7489,
  ri: ri7489,
  pct: pct7489,
};

function valueErrors(list: TagList, checks: Record<string, Check>): string[] {
  return list.tags.flatMap(([name, value]) => {
    const problem = checks[name]?.(value) ?? null;
    return problem === null ? [] : [`"${name}=${value}" ${problem}`];
  });
}

const VERSION_FIRST = 'the record breaks dmarc-version: it must start with v=DMARC1';

function rfc7489Errors(record: string, list: TagList): string[] {
  const errors = valueErrors(list, RFC7489_VALUES);
  if (!/;/.test(record)) errors.unshift('the record breaks dmarc-record: dmarc-sep (";") must follow the version');
  if (tagValue(list, 'p') === null) errors.unshift('the record breaks dmarc-request: p is required (section 6.3)');
  else if (list.tags[1]?.[0] !== 'p') errors.unshift('the record breaks dmarc-record: p must come right after v');
  return errors;
}

const lower = (v: string | null): string | null => (v === null ? null : v.toLowerCase());

/**
 * The policy a receiver applies to the domain's own mail, after RFC 7489 section 6.6.3 step 6 (repeated, with np,
 * by RFC 9989's policy discovery): a record without a valid p (present, right after v, a dmarc-request) or with
 * an invalid sp or np is acted on as p=none when its rua holds a syntactically valid URI, and not at all
 * otherwise (null). A tag list that cannot be read, or a wrong version, is no policy record. Other bad values are
 * discarded for their defaults (section 6.3), so they leave p in force.
 */
function effectivePolicy(list: TagList, readable: boolean): DmarcParsed['effective_policy'] {
  if (!readable) return null;
  const p = tagValue(list, 'p');
  const valid = (tag: string) => {
    const v = tagValue(list, tag);
    return v === null || REQUEST(v) === null;
  };
  if (p !== null && list.tags[1]?.[0] === 'p' && REQUEST(p) === null && valid('sp') && valid('np'))
    return p.toLowerCase() as 'none' | 'quarantine' | 'reject';
  return uriList(tagValue(list, 'rua')).some((uri) => uriProblem(uri, true) === null) ? 'none' : null;
}

export function parseDmarc(record: string): DmarcFacts {
  const list = parseTagList(record, GRAMMAR);
  const versionOk = list.tags[0]?.[0] === 'v' && list.tags[0][1] === 'DMARC1';
  const version = versionOk ? [] : [VERSION_FIRST];
  const pctText = tagValue(list, 'pct');
  return {
    p: lower(tagValue(list, 'p')),
    effective_policy: effectivePolicy(list, versionOk && list.errors.length === 0),
    sp: lower(tagValue(list, 'sp')),
    np: lower(tagValue(list, 'np')),
    t: lower(tagValue(list, 't')),
    pct: pctText !== null && pct7489(pctText) === null ? Number(pctText) : null,
    rua: uriList(tagValue(list, 'rua')),
    ruf: uriList(tagValue(list, 'ruf')),
    adkim: lower(tagValue(list, 'adkim')),
    aspf: lower(tagValue(list, 'aspf')),
    unknown_tags: list.tags.map(([k]) => k).filter((k) => !RFC9989_TAGS.has(k) && !RFC7489_TAGS.has(k)),
    errors: [...version, ...list.errors, ...valueErrors(list, RFC9989_VALUES)],
    errors_rfc7489: [...version, ...list.errors, ...rfc7489Errors(record, list)],
  };
}

/** The mailbox domain of a mailto: report URI (any "!size" suffix dropped), lower-cased; null for other schemes. */
export function mailtoDomain(uri: string): string | null {
  const m = /^mailto:[^@/?]+@([^!?]+)/i.exec(uri);
  return m ? normaliseName(trimOf(m[1]!, SPACE_OR_TAB)) : null;
}
