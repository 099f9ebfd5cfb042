// The small mail-policy TXT records, each per its ABNF: MTA-STS (RFC 8461 section 3.1), SMTP TLS reporting
// (RFC 8460 section 3) and BIMI (draft-brand-indicators-for-message-identification, "Assertion Record
// Definition"). Pure; every error names the production it breaks.
import type { BimiFacet, MtaStsFacet, TlsRptFacet } from './facts.ts';
import { parseTagList, tagValue, uriList, type TagGrammar, type TagList } from './parse-tags.ts';
import { parseUri, uriHost } from '../shared/uri.ts';

/** Records whose first field is the version (case-sensitive %s in RFC 8461 and RFC 8460), then ";", WSP or the end. */
export const MTA_STS_VERSION = /^v=STSv1(?=[ \t;]|$)/;
export const TLS_RPT_VERSION = /^v=TLSRPTv1(?=[ \t;]|$)/;
export const BIMI_VERSION = /^[vV][ \t]*=[ \t]*BIMI1(?=[ \t;]|$)/;

/** sts-extension / tlsrpt-extension: name (ALPHA / DIGIT) *31(ALPHA / DIGIT / "_" / "-" / "."), value 1*(%x21-3A / %x3C / %x3E-7E). */
const EXTENSION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
const EXTENSION_VALUE = /^[\x21-\x3a\x3c\x3e-\x7e]+$/;

function versionFirst(list: TagList, field: string, value: string): string[] {
  const first = list.tags[0];
  return first?.[0] === 'v' && first[1] === value ? [] : [`the record breaks ${field}: it must start with v=${value}`];
}

function requiredField(list: TagList, name: string, production: string): string[] {
  return tagValue(list, name) === null ? [`the record breaks ${production}: ${name}= is required`] : [];
}

/** Tags are split on printable text; each field's own production is checked afterwards. */
const FIELD = (tag: string): TagGrammar => ({
  tag,
  name: EXTENSION_NAME,
  value: /^[\x20-\x3a\x3c-\x7e]+$/,
  spacedEquals: false,
});

/** Fields other than the version and the ones the format defines are extensions: values 1*(%x21-3A / %x3C / %x3E-7E). */
function extensionErrors(list: TagList, defined: string[], production: string): string[] {
  return list.tags
    .filter(([name, value], i) => i > 0 && !defined.includes(name) && !EXTENSION_VALUE.test(value))
    .map(
      ([name, value]) => `"${name}=${value}" breaks ${production}: the value holds a space, "=" or a control character`,
    );
}

export type MtaStsFacts = Pick<MtaStsFacet, 'id' | 'errors'>;

/** sts-text-record = sts-version 1*(sts-field-delim sts-field) [sts-field-delim], sts-id = %s"id=" 1*32(ALPHA / DIGIT). */
export function parseMtaSts(record: string): MtaStsFacts {
  const list = parseTagList(record, FIELD('sts-field'));
  const id = tagValue(list, 'id');
  const errors = [
    ...versionFirst(list, 'sts-version', 'STSv1'),
    ...list.errors,
    ...requiredField(list, 'id', 'sts-id'),
    ...extensionErrors(list, ['id'], 'sts-extension'),
  ];
  if (id !== null && !/^[A-Za-z0-9]{1,32}$/.test(id))
    errors.push(`"id=${id}" breaks sts-id: not 1 to 32 letters and digits`);
  return { id, errors };
}

export type TlsRptFacts = Pick<TlsRptFacet, 'rua' | 'errors'>;

function tlsRptUriErrors(uri: string): string[] {
  const scheme = parseUri(uri)?.scheme;
  if (scheme === undefined || /[!,]/.test(uri))
    return [`"${uri}" breaks tlsrpt-uri: not a URI with "!", "," and ";" encoded`];
  return scheme === 'mailto' || scheme === 'https'
    ? []
    : [`"${uri}" breaks tlsrpt-uri: only mailto: and https: are supported`];
}

/** tlsrpt-record = tlsrpt-version 1*(field-delim tlsrpt-field) [field-delim]; rua URIs are mailto: or https: (section 3). */
export function parseTlsRpt(record: string): TlsRptFacts {
  const list = parseTagList(record, FIELD('tlsrpt-field'));
  const rua = uriList(tagValue(list, 'rua'));
  const errors = [
    ...versionFirst(list, 'tlsrpt-version', 'TLSRPTv1'),
    ...list.errors,
    ...requiredField(list, 'rua', 'tlsrpt-rua'),
    ...extensionErrors(list, ['rua'], 'tlsrpt-extension'),
    ...rua.flatMap(tlsRptUriErrors),
  ];
  return { rua, errors };
}

export type BimiFacts = Pick<BimiFacet, 'location' | 'authority' | 'errors'>;

/** DKIM's tag-name = ALPHA *ALNUMPUNC (RFC 6376 section 3.2), which BIMI's tag-value syntax follows. */
const BIMI_GRAMMAR: TagGrammar = {
  tag: 'tag-spec',
  name: /^[A-Za-z][A-Za-z0-9_]*$/,
  value: /^[\x20-\x3a\x3c-\x7e]*$/,
  spacedEquals: true,
};

/** bimi-uri: an https URI with a fully qualified host; empty means "declined" (l=) or "no evidence" (a=). */
function bimiUriErrors(name: string, value: string | null): string[] {
  if (value === null || value === '') return [];
  const https = parseUri(value)?.scheme === 'https' && !value.includes(',');
  const host = https ? uriHost(value) : null;
  return https && host !== null && host.includes('.')
    ? []
    : [`"${name}=${value}" breaks bimi-uri: not an https URI with a domain name`];
}

/** bimi-record = bimi-version (bimi-sep bimi-location) [bimi-sep bimi-evidence-location] [lps] [avp] [bimi-sep]. */
export function parseBimi(record: string): BimiFacts {
  const list = parseTagList(record, BIMI_GRAMMAR);
  const location = tagValue(list, 'l');
  const authority = tagValue(list, 'a');
  const avp = tagValue(list, 'avp');
  const lps = tagValue(list, 'lps');
  const errors = [
    ...versionFirst(list, 'bimi-version', 'BIMI1'),
    ...list.errors,
    ...requiredField(list, 'l', 'bimi-location'),
    ...bimiUriErrors('l', location),
    ...bimiUriErrors('a', authority),
  ];
  if (avp !== null && avp !== 'personal' && avp !== 'brand')
    errors.push(`"avp=${avp}" breaks bimi-logo-preference: not personal or brand`);
  if (lps !== null && !/^(?:[A-Za-z0-9-]{1,63}(?:[ \t]*,[ \t]*[A-Za-z0-9-]{1,63})*)?$/.test(lps))
    errors.push(`"lps=${lps}" breaks local-part-selector: prefixes of letters, digits and "-", comma separated`);
  return { location: location || null, authority: authority || null, errors };
}
