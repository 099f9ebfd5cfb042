// security.txt per RFC 9116 section 4 (ABNF): `field-name ":" SP value` lines, comments, blank lines, and an optional
// OpenPGP cleartext signature around the whole file (section 2.3). Each value is read against its field's grammar
// (uri per RFC 3986, date-time per RFC 3339, Language-Tag per RFC 5646); every error names the production it breaks.
// A well-formed language tag must also be valid (RFC 5646 section 2.2.9): each subtag in the IANA registry.
// Facts only: the values as written, the one Expires date as ISO 8601, fields outside the registry, what did not parse.
import { parse as parseLanguageTag, type Schema as LanguageTag } from 'bcp-47';
import { lazyRequire } from '../../src/lib/lazy-require.ts';
import { parseUri } from '../shared/uri.ts';
import { decodeUtf8, splitLines } from './text.ts';
import { SPACE_OR_TAB, trimEndOf, trimOf } from '../../src/lib/trim.ts';

/** The fields of the IANA "security.txt Fields" registry: RFC 9116 section 2.5 and CSAF. */
const SECURITY_TXT_FIELDS = [
  'acknowledgments',
  'canonical',
  'contact',
  'csaf',
  'encryption',
  'expires',
  'hiring',
  'policy',
  'preferred-languages',
] as const;

export type SecurityTxtField = (typeof SECURITY_TXT_FIELDS)[number];

/** Fields whose value is `uri`; `http:` in any of them is an insecure web URI. */
const URI_FIELDS: readonly SecurityTxtField[] = [
  'acknowledgments',
  'canonical',
  'contact',
  'csaf',
  'encryption',
  'hiring',
  'policy',
];

export type SecurityTxtErrorCode =
  | 'missing_separator'
  | 'invalid_field_name'
  | 'missing_space'
  | 'empty_value'
  | 'invalid_uri'
  | 'invalid_expires'
  | 'invalid_language_tag'
  | 'unregistered_language_subtag'
  | 'unterminated_signature'
  | 'text_after_signature';

/** The RFC 9116 section 4 production each error breaks. */
export const SECURITY_TXT_ERROR_PRODUCTION: Record<SecurityTxtErrorCode, string> = {
  missing_separator: 'fs',
  invalid_field_name: 'field-name',
  missing_space: 'SP',
  empty_value: 'unstructured',
  invalid_uri: 'uri',
  invalid_expires: 'date-time',
  invalid_language_tag: 'lang-tag',
  unregistered_language_subtag: 'lang-tag',
  unterminated_signature: 'sign-footer',
  text_after_signature: 'sign-footer',
};

export interface SecurityTxtError {
  line: number;
  code: SecurityTxtErrorCode;
  production: string;
  /** The line as written, cut to VALUE_LIMIT characters. */
  value: string;
  /** For unregistered_language_subtag: the subtag, as written. */
  subtag?: string;
}

export interface ParsedSecurityTxt {
  /** The file is an OpenPGP cleartext signed message. */
  signed: boolean;
  /** A signed file carries a complete BEGIN/END PGP SIGNATURE block after the message. */
  signatureComplete: boolean | null;
  fields: Record<SecurityTxtField, string[]>;
  /** Field names outside the registry, as written (first spelling), sorted case-insensitively, unique. */
  unknownFields: string[];
  /** The single Expires value as ISO 8601 UTC, when there is exactly one and it is an RFC 3339 date-time. */
  expires: string | null;
  /** `http:` URIs in URI-valued fields, in file order. */
  insecureUris: string[];
  errors: SecurityTxtError[];
  /** The file's lines as sent, without their line breaks: what an excerpt quotes (never an observation itself). */
  text: string[];
  /** Where each field is, in file order: a registered field by its name, any other as `unknown`. */
  fieldLines: { field: SecurityTxtField | 'unknown'; line: number; insecure: boolean }[];
}

/** RFC 5322 section 3.6.8: field-name = 1*ftext, ftext = %d33-57 / %d59-126. */
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})([Tt ])(\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)([Zz]|[+-]\d{2}:\d{2})$/;
const SIGNED_START = '-----BEGIN PGP SIGNED MESSAGE-----';
const SIGNATURE_START = '-----BEGIN PGP SIGNATURE-----';
const SIGNATURE_END = '-----END PGP SIGNATURE-----';
const VALUE_LIMIT = 200;

/**
 * An RFC 3339 date-time (section 5.6) as ISO 8601 UTC, or null. With `spaced`, a space may stand for the T: the
 * section's note lets applications write it so (`date --rfc-3339=seconds` does), and leading security.txt readers
 * (internet.nl's) take it; the strict letter is the grammar check's.
 */
export function rfc3339ToIso(value: string, spaced = false): string | null {
  const m = RFC3339.exec(value);
  if (!m || (m[4] === ' ' && !spaced)) return null;
  const [y, mo, d] = m.slice(1, 4).map(Number) as [number, number, number];
  const [h, mi, s] = m.slice(5, 8).map(Number) as [number, number, number];
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || d < 1 || d > days || h > 23 || mi > 59 || s >= 61) return null;
  const t = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[5]}:${m[6]}:${m[7]}${m[8]!.toUpperCase()}`);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** The registry's types a language tag's subtags are checked against (RFC 5646 section 2.2). */
type SubtagType = 'language' | 'extlang' | 'script' | 'region' | 'variant';

/** The IANA Language Subtag Registry's subtags of each type, by lower-case subtag, with their record's position:
 * one file per type, read when a tag first has a subtag of that type, not when the service starts. Most tags are a
 * language and a region: 120 KB of JSON, 8 to 10 ms to load, where the index of every type (300 KB of nested
 * objects) took 13 to 16; the full registry, which a package over it loads beside the index, is never needed. */
const subtagsOf: Record<SubtagType, () => Record<string, number | undefined>> = {
  language: lazyRequire('language-subtag-registry/data/json/language.json'),
  extlang: lazyRequire('language-subtag-registry/data/json/extlang.json'),
  script: lazyRequire('language-subtag-registry/data/json/script.json'),
  region: lazyRequire('language-subtag-registry/data/json/region.json'),
  variant: lazyRequire('language-subtag-registry/data/json/variant.json'),
};

/** Whether the registry lists the subtag as this type. A position is a number, the first record's 0 included. */
function registered(subtag: string, type: SubtagType): boolean {
  return Object.hasOwn(subtagsOf[type](), subtag.toLowerCase());
}

/** RFC 5646 sections 2.2.1, 2.2.3 and 2.2.4: the private-use ranges (qaa..qtz, Qaaa..Qabx, QM..QZ, XA..XZ), which
 * the registry holds as ranges and its package's index does not list one by one. */
const PRIVATE_USE_SUBTAG = /^(?:q[a-t][a-z]|qa(?:a[a-z]|b[a-x])|q[m-z]|x[a-z])$/i;

/** The subtags of a well-formed tag that the IANA Language Subtag Registry lacks for their position (RFC 5646
 * section 2.2.9). Grandfathered tags are registered whole (section 2.2.8); extensions and private use are not
 * language subtags the registry lists. */
function unregisteredSubtags(tag: LanguageTag): string[] {
  if (tag.irregular || tag.regular) return [];
  const typed: [string | null | undefined, SubtagType][] = [
    [tag.language, 'language'],
    ...tag.extendedLanguageSubtags.map((s): [string, SubtagType] => [s, 'extlang']),
    [tag.script, 'script'],
    [tag.region, 'region'],
    ...tag.variants.map((s): [string, SubtagType] => [s, 'variant']),
  ];
  return typed.flatMap(([subtag, type]) =>
    !subtag || PRIVATE_USE_SUBTAG.test(subtag) || registered(subtag, type) ? [] : [subtag],
  );
}

type LanguagesRead = { wellFormed: false } | { wellFormed: true; unregistered: string[] };

/** RFC 9116 lang-values: lang-tag *(*WSP "," *WSP lang-tag), each tag per RFC 5646 section 2.1, then checked for
 * validity. */
function readLanguages(value: string): LanguagesRead {
  const unregistered: string[] = [];
  for (const text of value.split(',').map((t) => trimOf(t, SPACE_OR_TAB))) {
    let ok = text !== '';
    const tag = parseLanguageTag(text, {
      forgiving: false,
      normalize: false,
      warning: () => {
        ok = false;
      },
    });
    if (!ok) return { wellFormed: false };
    unregistered.push(...unregisteredSubtags(tag));
  }
  return { wellFormed: true, unregistered };
}

/** The value grammar a known field's value breaks, or null (Preferred-Languages is read by readLanguages). */
function valueError(
  field: Exclude<SecurityTxtField, 'preferred-languages'>,
  value: string,
): SecurityTxtErrorCode | null {
  if (field === 'expires') return rfc3339ToIso(value) === null ? 'invalid_expires' : null;
  return parseUri(value) === null ? 'invalid_uri' : null;
}

/** A signed file's message lines (armor headers dropped, dash-escaping undone), whether the signature block is
 * complete, and the first line after it: `signed` ends with sign-footer, so only that line's own eol may follow. */
interface SignedBody {
  body: { text: string; n: number }[];
  complete: boolean;
  after: { text: string; n: number } | null;
}

function signedBody(lines: string[]): SignedBody {
  let i = 1;
  while (i < lines.length && trimOf(lines[i]!, SPACE_OR_TAB) !== '') i++; // armor headers (Hash: ...) end at a blank line
  const body: { text: string; n: number }[] = [];
  for (i++; i < lines.length; i++) {
    const line = lines[i]!;
    if (trimOf(line, SPACE_OR_TAB) === SIGNATURE_START) {
      const end = lines.findIndex((l, j) => j > i && trimOf(l, SPACE_OR_TAB) === SIGNATURE_END);
      if (end < 0) return { body, complete: false, after: null };
      const rest = lines.slice(end + 1);
      const after = rest.length === 0 || (rest.length === 1 && rest[0] === '') ? null : { text: rest[0]!, n: end + 2 };
      return { body, complete: true, after };
    }
    body.push({ text: line.startsWith('- ') ? line.slice(2) : line, n: i + 1 });
  }
  return { body, complete: false, after: null };
}

function emptyParse(signed: boolean, text: string[]): ParsedSecurityTxt {
  const fields = Object.fromEntries(SECURITY_TXT_FIELDS.map((f) => [f, [] as string[]]));
  return {
    signed,
    signatureComplete: null,
    fields: fields as Record<SecurityTxtField, string[]>,
    unknownFields: [],
    expires: null,
    insecureUris: [],
    errors: [],
    text,
    fieldLines: [],
  };
}

type Line =
  { kind: 'skip' } | { kind: 'error'; code: SecurityTxtErrorCode } | { kind: 'field'; name: string; value: string };

/** RFC 9116 `line = [ (field / comment) ] eol`, eol = *WSP [CR] LF: what one line is. */
function readLine(text: string): Line {
  const line = trimEndOf(text, SPACE_OR_TAB);
  if (line === '' || line.startsWith('#')) return { kind: 'skip' };
  const colon = line.indexOf(':');
  if (colon < 0) return { kind: 'error', code: 'missing_separator' };
  const name = line.slice(0, colon);
  if (!FIELD_NAME.test(name)) return { kind: 'error', code: 'invalid_field_name' };
  const rest = line.slice(colon + 1);
  if (rest === '' || rest === ' ') return { kind: 'error', code: 'empty_value' };
  if (!rest.startsWith(' ')) return { kind: 'error', code: 'missing_space' };
  return { kind: 'field', name, value: rest.slice(1) };
}

export function parseSecurityTxt(bytes: Uint8Array, cut = false): ParsedSecurityTxt {
  const lines = splitLines(decodeUtf8(bytes, cut).text);
  const out = emptyParse(trimOf(lines[0] ?? '', SPACE_OR_TAB) === SIGNED_START, lines);
  let body = lines.map((text, i) => ({ text, n: i + 1 }));
  const error = (n: number, code: SecurityTxtErrorCode, text: string, subtag?: string) =>
    out.errors.push({
      line: n,
      code,
      production: SECURITY_TXT_ERROR_PRODUCTION[code],
      value: text.slice(0, VALUE_LIMIT),
      ...(subtag === undefined ? {} : { subtag }),
    });
  if (out.signed) {
    const s = signedBody(lines);
    body = s.body;
    out.signatureComplete = s.complete;
    if (!s.complete) error(lines.length, 'unterminated_signature', lines[lines.length - 1] ?? '');
    if (s.after !== null) error(s.after.n, 'text_after_signature', s.after.text);
  }
  const unknown = new Map<string, string>();
  for (const { text, n } of body) {
    const read = readLine(text);
    if (read.kind === 'skip') continue;
    if (read.kind === 'error') {
      error(n, read.code, text);
      continue;
    }
    const lower = read.name.toLowerCase();
    if (!(SECURITY_TXT_FIELDS as readonly string[]).includes(lower)) {
      if (!unknown.has(lower)) unknown.set(lower, read.name);
      out.fieldLines.push({ field: 'unknown', line: n, insecure: false });
      continue;
    }
    const field = lower as SecurityTxtField;
    const insecure = URI_FIELDS.includes(field) && /^http:/i.test(read.value);
    out.fieldLines.push({ field, line: n, insecure });
    out.fields[field].push(read.value);
    if (field === 'preferred-languages') {
      const langs = readLanguages(read.value);
      if (!langs.wellFormed) error(n, 'invalid_language_tag', text);
      else for (const subtag of langs.unregistered) error(n, 'unregistered_language_subtag', text, subtag);
    } else {
      const code = valueError(field, read.value);
      if (code) error(n, code, text);
    }
    if (insecure) out.insecureUris.push(read.value);
  }
  out.unknownFields = [...unknown.keys()].sort().map((k) => unknown.get(k)!);
  if (out.fields.expires.length === 1) out.expires = rfc3339ToIso(out.fields.expires[0]!, true);
  return out;
}
