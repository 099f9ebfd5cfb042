// The small mail-policy TXT records: MTA-STS (RFC 8461 section 3.1), SMTP TLS reporting (RFC 8460 section 3)
// and BIMI (draft-brand-indicators-for-message-identification). Pure.
import { parseTagList, tagValue, uriList, type TagList } from './parse-tags.ts';
import type { BimiFacet, MtaStsFacet, TlsRptFacet } from './facts.ts';

export const MTA_STS_VERSION = /^v\s*=\s*STSv1\s*(;|$)/;
export const TLS_RPT_VERSION = /^v\s*=\s*TLSRPTv1\s*(;|$)/;
export const BIMI_VERSION = /^v\s*=\s*BIMI1\s*(;|$)/;

function versionFirst(list: TagList, version: string): string[] {
  const first = list.tags[0];
  return first?.[0] === 'v' && first[1] === version ? [] : [`the record must start with v=${version}`];
}

export type MtaStsFacts = Pick<MtaStsFacet, 'id' | 'errors'>;

export function parseMtaSts(record: string): MtaStsFacts {
  const list = parseTagList(record);
  const errors = [...list.errors, ...versionFirst(list, 'STSv1')];
  const id = tagValue(list, 'id');
  if (id === null) errors.push('id is missing');
  else if (!/^[A-Za-z0-9]{1,32}$/.test(id)) errors.push(`id=${id} is not 1 to 32 letters and digits`);
  return { id, errors };
}

export type TlsRptFacts = Pick<TlsRptFacet, 'rua' | 'errors'>;

export function parseTlsRpt(record: string): TlsRptFacts {
  const list = parseTagList(record);
  const errors = [...list.errors, ...versionFirst(list, 'TLSRPTv1')];
  const rua = uriList(tagValue(list, 'rua'));
  if (rua.length === 0) errors.push('rua is missing');
  for (const uri of rua) {
    if (!/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/i.test(uri))
      errors.push(`rua ${uri} is not a mailto: or https: URI`);
  }
  return { rua, errors };
}

export type BimiFacts = Pick<BimiFacet, 'location' | 'authority' | 'errors'>;

export function parseBimi(record: string): BimiFacts {
  const list = parseTagList(record);
  const errors = [...list.errors, ...versionFirst(list, 'BIMI1')];
  const location = tagValue(list, 'l') || null;
  const authority = tagValue(list, 'a') || null;
  for (const [name, url] of [
    ['l', location],
    ['a', authority],
  ] as const) {
    if (url !== null && !/^https:\/\/\S+$/i.test(url)) errors.push(`${name}=${url} is not an https URL`);
  }
  return { location, authority, errors };
}
