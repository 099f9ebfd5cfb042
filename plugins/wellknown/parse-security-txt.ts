// security.txt per RFC 9116: `Field: value` lines (names case-insensitive), comments, and an optional OpenPGP
// cleartext signature around the whole file (section 2.3). Facts only: the values as written, the one
// Expires date normalised to ISO 8601 when it parses, and what did not parse.
import { decodeUtf8, splitLines } from './text.ts';

/** The fields RFC 9116 section 2.5 defines, plus CSAF (registered in the IANA security.txt registry). */
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

/** Fields whose values are URIs (section 2.5); `http:` in any of them is an insecure web URI. */
const URI_FIELDS: readonly SecurityTxtField[] = [
  'acknowledgments',
  'canonical',
  'contact',
  'csaf',
  'encryption',
  'hiring',
  'policy',
];

export type SecurityTxtErrorCode = 'missing_separator' | 'empty_value' | 'invalid_expires' | 'unterminated_signature';

export interface ParsedSecurityTxt {
  /** The file is an OpenPGP cleartext signed message. */
  signed: boolean;
  /** A signed file carries a complete BEGIN/END PGP SIGNATURE block after the message. */
  signatureComplete: boolean | null;
  fields: Record<SecurityTxtField, string[]>;
  /** Field names outside the list above, lower-cased, sorted, unique. */
  unknownFields: string[];
  /** The single Expires value as ISO 8601 UTC, when there is exactly one and it is an RFC 3339 date-time. */
  expires: string | null;
  /** `http:` URIs in URI-valued fields, in file order. */
  insecureUris: string[];
  errors: { line: number; code: SecurityTxtErrorCode }[];
}

const FIELD = /^([A-Za-z0-9-]+)\s*:\s*(.*)$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2}(?:\.\d+)?)([Zz]|[+-]\d{2}:\d{2})$/;
const SIGNED_START = '-----BEGIN PGP SIGNED MESSAGE-----';
const SIGNATURE_START = '-----BEGIN PGP SIGNATURE-----';
const SIGNATURE_END = '-----END PGP SIGNATURE-----';

/** An RFC 3339 date-time as ISO 8601 UTC, or null. */
export function rfc3339ToIso(value: string): string | null {
  const m = RFC3339.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as number[];
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59 || Number(m[6]) >= 61) return null;
  const t = Date.parse(value.trim().replace(' ', 'T').replace(/z$/, 'Z'));
  if (Number.isNaN(t)) return null;
  const date = new Date(t);
  // Date.parse rolls 31 February over into March; the calendar day must survive the round trip (UTC offsets aside).
  if (m[7]!.toUpperCase() === 'Z' && date.getUTCDate() !== d) return null;
  return date.toISOString();
}

/** The message lines of a cleartext-signed file (armor headers dropped, dash-escaping undone). */
function signedBody(lines: string[]): { body: { text: string; n: number }[]; complete: boolean } {
  let i = 1;
  while (i < lines.length && lines[i]!.trim() !== '') i++; // armor headers (Hash: ...) end at a blank line
  const body: { text: string; n: number }[] = [];
  for (i++; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === SIGNATURE_START) {
      const end = lines.slice(i + 1).some((l) => l.trim() === SIGNATURE_END);
      return { body, complete: end };
    }
    body.push({ text: line.startsWith('- ') ? line.slice(2) : line, n: i + 1 });
  }
  return { body, complete: false };
}

export function parseSecurityTxt(bytes: Uint8Array, cut = false): ParsedSecurityTxt {
  const lines = splitLines(decodeUtf8(bytes, cut).text);
  const signed = lines[0]?.trim() === SIGNED_START;
  const out: ParsedSecurityTxt = {
    signed,
    signatureComplete: null,
    fields: Object.fromEntries(SECURITY_TXT_FIELDS.map((f) => [f, [] as string[]])) as unknown as Record<
      SecurityTxtField,
      string[]
    >,
    unknownFields: [],
    expires: null,
    insecureUris: [],
    errors: [],
  };
  let body = lines.map((text, i) => ({ text, n: i + 1 }));
  if (signed) {
    const s = signedBody(lines);
    body = s.body;
    out.signatureComplete = s.complete;
    if (!s.complete) out.errors.push({ line: lines.length, code: 'unterminated_signature' });
  }
  const unknown = new Set<string>();
  for (const { text, n } of body) {
    const line = text.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = FIELD.exec(line);
    if (!m) {
      out.errors.push({ line: n, code: 'missing_separator' });
      continue;
    }
    const name = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (value === '') {
      out.errors.push({ line: n, code: 'empty_value' });
      continue;
    }
    if (!(SECURITY_TXT_FIELDS as readonly string[]).includes(name)) {
      unknown.add(name);
      continue;
    }
    const field = name as SecurityTxtField;
    out.fields[field].push(value);
    if (field === 'expires' && rfc3339ToIso(value) === null) out.errors.push({ line: n, code: 'invalid_expires' });
    if (URI_FIELDS.includes(field) && /^http:/i.test(value)) out.insecureUris.push(value);
  }
  out.unknownFields = [...unknown].sort();
  if (out.fields.expires.length === 1) out.expires = rfc3339ToIso(out.fields.expires[0]!);
  return out;
}
