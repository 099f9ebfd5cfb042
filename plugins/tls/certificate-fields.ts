// The certificate fields node:crypto on Node 20 does not expose, read straight from the DER (RFC 5280 section
// 4.1): the issuer and subject names as strings, the validity, and the extensions by OID with the few general
// names the TLS probe reports. A walk of the TBSCertificate, where an ASN.1 schema library cost a cold `dvs scan`
// some 60 ms (loading its decorators and reflect-metadata, then decoding through them).
import { children, DerError, oidText, readTlv, type Tlv } from './der.ts';

export interface CertificateFields {
  issuer: Tlv;
  subject: Tlv;
  /** Null for a time in a form DER does not allow (an offset, say), which node:crypto still reads. */
  notBefore: Date | null;
  notAfter: Date | null;
  /** Each extension's extnValue (the OCTET STRING's contents), by OID; the first where one repeats. */
  extensions: ReadonlyMap<string, Buffer>;
}

const EXTENSIONS_TAG = 0xa3;
const VERSION_TAG = 0xa0;

/** Reads the fields of a certificate's DER (which node:crypto has already accepted as a certificate). */
export function certificateFields(der: Buffer): CertificateFields {
  const [tbs] = children(readTlv(der).value);
  if (tbs === undefined) throw new DerError('no TBSCertificate');
  const fields = children(tbs.value);
  // version [0] is absent for v1 certificates; serialNumber and signature follow it.
  const at = fields[0]?.tag === VERSION_TAG ? 3 : 2;
  const [issuer, validity, subject] = fields.slice(at, at + 3);
  if (!issuer || !validity || !subject) throw new DerError('truncated TBSCertificate');
  const [notBefore, notAfter] = children(validity.value);
  if (!notBefore || !notAfter) throw new DerError('truncated validity');
  const extensions = new Map<string, Buffer>();
  const wrapped = fields.slice(at + 4).find((f) => f.tag === EXTENSIONS_TAG);
  const list = wrapped ? children(readTlv(wrapped.value).value) : [];
  for (const ext of list) {
    const parts = children(ext.value);
    const id = parts[0];
    const value = parts.at(-1);
    if (id?.tag !== 0x06 || value?.tag !== 0x04) throw new DerError('malformed extension');
    const oid = oidText(id.value);
    if (!extensions.has(oid)) extensions.set(oid, value.value);
  }
  return { issuer, subject, notBefore: timeOf(notBefore), notAfter: timeOf(notAfter), extensions };
}

const UTC_TIME = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?Z$/;
const GENERALIZED_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?:[.,](\d{1,3})\d*)?Z$/;

/** A Time (UTCTime or GeneralizedTime, RFC 5280 section 4.1.2.5), in UTC; null when not in its DER form. */
function timeOf(t: Tlv): Date | null {
  const text = t.value.toString('latin1');
  const utc = t.tag === 0x17 ? UTC_TIME.exec(text) : null;
  const general = t.tag === 0x18 ? GENERALIZED_TIME.exec(text) : null;
  const m = utc ?? general;
  if (!m) return null;
  // A two-digit year below 50 is 20YY, else 19YY (RFC 5280 section 4.1.2.5.1).
  const year = utc ? Number(m[1]) + (Number(m[1]) < 50 ? 2000 : 1900) : Number(m[1]);
  const ms = general?.[7] ? Number(general[7].padEnd(3, '0')) : 0;
  return new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), ms));
}

/** Short names of attribute types, as the names have always been shown in observations; others stay dotted. */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.6': 'C',
  '0.9.2342.19200300.100.1.25': 'DC',
  '1.2.840.113549.1.9.1': 'E',
  '2.5.4.42': 'G',
  '2.5.4.43': 'I',
  '2.5.4.4': 'SN',
  '2.5.4.12': 'T',
};

/** UTF-16BE to text (BMPString). */
function utf16be(bytes: Buffer): string {
  const swapped = Buffer.from(bytes.subarray(0, bytes.length & ~1));
  return swapped.swap16().toString('utf16le');
}

/** UTF-32BE to text (UniversalString); a code point past Unicode's range reads as U+FFFD. */
function utf32be(bytes: Buffer): string {
  let out = '';
  for (let i = 0; i + 4 <= bytes.length; i += 4) {
    const cp = bytes.readUInt32BE(i);
    out += String.fromCodePoint(cp <= 0x10ffff ? cp : 0xfffd);
  }
  return out;
}

/** An attribute value's text for the directory string types, or null for any other type. */
function directoryString(t: Tlv): string | null {
  switch (t.tag) {
    case 0x0c: // UTF8String
      return t.value.toString('utf8');
    case 0x13: // PrintableString
    case 0x14: // TeletexString, read a byte per character
    case 0x16: // IA5String
      return t.value.toString('latin1');
    case 0x1c: // UniversalString
      return utf32be(t.value);
    case 0x1e: // BMPString
      return utf16be(t.value);
    default:
      return null;
  }
}

/**
 * Escapes a value as RFC 4514 section 2.4 asks: the special characters anywhere, a leading space or '#', a
 * trailing space, and control characters as hex pairs of their UTF-8 bytes.
 */
function escapeValue(text: string): string {
  return text
    .replace(/[,+"\\<>;]/g, '\\$&')
    .replace(/^[ #]/, '\\$&')
    .replace(/ $/, '\\ ')
    .replace(/[^\x20-\x7e\x80-\u{10ffff}]/gu, (c) => `\\${Buffer.from(c).toString('hex').toUpperCase()}`);
}

/** The attributes of a Name (RDNSequence), each as [type OID, value]. */
function attributes(name: Tlv): [oid: string, value: Tlv][][] {
  return children(name.value).map((rdn) =>
    children(rdn.value).map((atv) => {
      const [type, value] = children(atv.value);
      if (type?.tag !== 0x06 || value === undefined) throw new DerError('malformed name attribute');
      return [oidText(type.value), value];
    }),
  );
}

/**
 * A Name as a string after RFC 4514 section 2, in the certificate's own RDN order (not reversed, as these names
 * have always been shown): `type=value` pairs, '+' within an RDN, ', ' between RDNs; a value of a type with no
 * string form is '#' and the hex of its DER.
 */
export function nameText(name: Tlv): string {
  return attributes(name)
    .map((rdn) =>
      rdn
        .map(([oid, value]) => {
          const text = directoryString(value);
          return `${SHORT_NAMES[oid] ?? oid}=${text === null ? `#${value.raw.toString('hex')}` : escapeValue(text)}`;
        })
        .join('+'),
    )
    .join(', ');
}

/** The first value of an attribute type in a Name, as text; null when the Name has none. */
export function nameField(name: Tlv, oid: string): string | null {
  for (const rdn of attributes(name))
    for (const [type, value] of rdn) if (type === oid) return directoryString(value) ?? value.raw.toString('hex');
  return null;
}

/** GeneralName tags (RFC 5280 section 4.2.1.6), context-specific and implicit. */
export const DNS_NAME = 0x82;
export const URI_NAME = 0x86;

/** The text of the GeneralNames of one kind in a GeneralNames value (IA5String contents). */
export function generalNames(value: Buffer, tag: number): string[] {
  return children(value)
    .filter((n) => n.tag === tag)
    .map((n) => n.value.toString('latin1'));
}

const OCSP_METHOD = '1.3.6.1.5.5.7.48.1';

/** OCSP responder URIs of an Authority Information Access extension (RFC 5280 section 4.2.2.1). */
export function ocspUris(extValue: Buffer): string[] {
  const uris: string[] = [];
  for (const description of children(readTlv(extValue).value)) {
    const [method, location] = children(description.value);
    if (method?.tag === 0x06 && oidText(method.value) === OCSP_METHOD && location?.tag === URI_NAME)
      uris.push(location.value.toString('latin1'));
  }
  return uris;
}

/** URIs of the full names of a CRL Distribution Points extension (RFC 5280 section 4.2.1.13). */
export function crlUris(extValue: Buffer): string[] {
  const uris: string[] = [];
  for (const point of children(readTlv(extValue).value)) {
    // distributionPoint [0] holds a DistributionPointName, whose fullName [0] is GeneralNames.
    const name = children(point.value).find((f) => f.tag === 0xa0);
    const fullName = name ? children(name.value).find((f) => f.tag === 0xa0) : undefined;
    if (fullName) uris.push(...generalNames(fullName.value, URI_NAME));
  }
  return uris;
}

/** The purpose OIDs of an Extended Key Usage extension (RFC 5280 section 4.2.1.12). */
export function keyPurposes(extValue: Buffer): string[] {
  return children(readTlv(extValue).value)
    .filter((f) => f.tag === 0x06)
    .map((f) => oidText(f.value));
}
