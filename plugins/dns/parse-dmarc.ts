// DMARC policy records (RFC 7489 section 6.3 and 6.4): the tags receivers act on, and what does not parse.
// Pure; whether the policy is strong enough is for the rules.
import { parseTagList, tagValue, uriList } from './parse-tags.ts';
import type { DmarcParsed } from '../../src/lib/schema-types/observations/dns.ts';

export type DmarcFacts = DmarcParsed;

/** Selects DMARC records among TXT strings: those whose first tag is v=DMARC1 (RFC 7489 section 6.6.3). */
export const DMARC_VERSION = /^v\s*=\s*DMARC1\s*(;|$)/;

const KNOWN_TAGS = new Set(['v', 'p', 'sp', 'np', 'pct', 'rua', 'ruf', 'adkim', 'aspf', 'fo', 'rf', 'ri', 'psd', 't']);
const POLICIES = new Set(['none', 'quarantine', 'reject']);
const ALIGNMENT = new Set(['r', 's']);

const lower = (v: string | null): string | null => (v === null ? null : v.toLowerCase());

export function parseDmarc(record: string): DmarcFacts {
  const list = parseTagList(record);
  const errors = [...list.errors];
  if (list.tags[0]?.[0] !== 'v' || list.tags[0][1] !== 'DMARC1') errors.push('the record must start with v=DMARC1');

  const p = lower(tagValue(list, 'p'));
  const sp = lower(tagValue(list, 'sp'));
  const np = lower(tagValue(list, 'np'));
  if (p === null) errors.push('p is missing');
  for (const [name, value] of [
    ['p', p],
    ['sp', sp],
    ['np', np],
  ] as const) {
    if (value !== null && !POLICIES.has(value)) errors.push(`${name}=${value} is not none, quarantine or reject`);
  }

  const pctText = tagValue(list, 'pct');
  let pct: number | null = null;
  if (pctText !== null) {
    if (/^\d{1,3}$/.test(pctText) && Number(pctText) <= 100) pct = Number(pctText);
    else errors.push(`pct=${pctText} is not an integer from 0 to 100`);
  }

  const adkim = lower(tagValue(list, 'adkim'));
  const aspf = lower(tagValue(list, 'aspf'));
  for (const [name, value] of [
    ['adkim', adkim],
    ['aspf', aspf],
  ] as const) {
    if (value !== null && !ALIGNMENT.has(value)) errors.push(`${name}=${value} is not r or s`);
  }

  const rua = uriList(tagValue(list, 'rua'));
  const ruf = uriList(tagValue(list, 'ruf'));
  for (const uri of [...rua, ...ruf]) {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(uri)) errors.push(`"${uri}" is not a URI`);
  }

  return {
    p,
    sp,
    np,
    pct,
    rua,
    ruf,
    adkim,
    aspf,
    unknown_tags: list.tags.map(([k]) => k).filter((k) => !KNOWN_TAGS.has(k)),
    errors,
  };
}

/** The mailbox domain of a mailto: report URI (any "!size" suffix dropped), lower-cased; null for other schemes. */
export function mailtoDomain(uri: string): string | null {
  const m = /^mailto:[^@]+@([^!?]+)/i.exec(uri);
  return m ? m[1]!.trim().toLowerCase().replace(/\.$/, '') : null;
}
