// Certificate facts from DER bytes: node:crypto for what it exposes (serial, key, fingerprint, CA flag,
// signature check) and a DER walk (certificate-fields.ts) for the names, validity and extensions Node 20 does not
// parse.
import type { Hash } from '../../src/lib/schema-types/observations/tls.ts';
import { X509Certificate as NodeCertificate } from 'node:crypto';
import {
  certificateFields,
  crlUris,
  DNS_NAME,
  generalNames,
  keyPurposes,
  nameField,
  nameText,
  ocspUris,
} from './certificate-fields.ts';
import { children, intValue, oidText, readTlv } from './der.ts';
import { normaliseName } from '../../src/lib/domain-name.ts';

export interface CertificateFacts {
  subject: string;
  subject_cn: string | null;
  issuer: string;
  issuer_cn: string | null;
  serial: string;
  not_before: string;
  not_after: string;
  /** dNSName entries of subjectAltName, lower-cased, sorted. */
  sans: string[];
  key_type: string | null;
  key_bits: number | null;
  key_curve: string | null;
  signature_algorithm: string;
  /** Digest the signature uses; `intrinsic` for EdDSA; null when it cannot be read. */
  signature_hash: Hash;
  sha256: string;
  self_signed: boolean;
  is_ca: boolean;
  must_staple: boolean;
  /** Log ids (base64) of the SCTs embedded in the certificate, sorted. */
  sct_log_ids: string[];
  ocsp_urls: string[];
  crl_urls: string[];
  /** Extended key usage OIDs, sorted; null when the extension is absent. */
  extended_key_usage: string[] | null;
}

const OID_TLS_FEATURE = '1.3.6.1.5.5.7.1.24';
const OID_SCT_LIST = '1.3.6.1.4.1.11129.2.4.2';
const OID_SUBJECT_ALT_NAME = '2.5.29.17';
const OID_AUTHORITY_INFO_ACCESS = '1.3.6.1.5.5.7.1.1';
const OID_CRL_DISTRIBUTION_POINTS = '2.5.29.31';
const OID_EXTENDED_KEY_USAGE = '2.5.29.37';
const OID_COMMON_NAME = '2.5.4.3';
const OID_RSASSA_PSS = '1.2.840.113549.1.1.10';
const TLS_FEATURE_STATUS_REQUEST = 5;

const SIGNATURE_ALGORITHMS: Record<string, [name: string, hash: NonNullable<Hash>]> = {
  '1.2.840.113549.1.1.4': ['md5WithRSAEncryption', 'md5'],
  '1.2.840.113549.1.1.5': ['sha1WithRSAEncryption', 'sha1'],
  '1.2.840.113549.1.1.14': ['sha224WithRSAEncryption', 'sha224'],
  '1.2.840.113549.1.1.11': ['sha256WithRSAEncryption', 'sha256'],
  '1.2.840.113549.1.1.12': ['sha384WithRSAEncryption', 'sha384'],
  '1.2.840.113549.1.1.13': ['sha512WithRSAEncryption', 'sha512'],
  '1.2.840.10045.4.1': ['ecdsa-with-SHA1', 'sha1'],
  '1.2.840.10045.4.3.1': ['ecdsa-with-SHA224', 'sha224'],
  '1.2.840.10045.4.3.2': ['ecdsa-with-SHA256', 'sha256'],
  '1.2.840.10045.4.3.3': ['ecdsa-with-SHA384', 'sha384'],
  '1.2.840.10045.4.3.4': ['ecdsa-with-SHA512', 'sha512'],
  '1.2.840.10040.4.3': ['dsa-with-SHA1', 'sha1'],
  '1.3.101.112': ['Ed25519', 'intrinsic'],
  '1.3.101.113': ['Ed448', 'intrinsic'],
};

const HASH_OIDS: Record<string, NonNullable<Hash>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

const CURVE_BITS: Record<string, number> = {
  prime256v1: 256,
  secp256k1: 256,
  secp384r1: 384,
  secp521r1: 521,
  secp224r1: 224,
  prime192v1: 192,
};

/** RSASSA-PSS names its hash in the parameters; absent means SHA-1 (RFC 4055 section 3.1). */
function pssHash(params: Buffer | undefined): Hash {
  const hashField = params ? children(params).find((f) => f.tag === 0xa0) : undefined;
  if (!hashField) return 'sha1';
  const [oid] = children(readTlv(hashField.value).value);
  return oid ? (HASH_OIDS[oidText(oid.value)] ?? null) : null;
}

function signatureAlgorithm(der: Buffer): { name: string; hash: Hash } {
  const [, algId] = children(readTlv(der).value);
  const [oid, params] = algId ? children(algId.value) : [];
  if (!oid) return { name: 'unknown', hash: null };
  const text = oidText(oid.value);
  if (text === OID_RSASSA_PSS)
    return { name: 'rsassa-pss', hash: pssHash(params?.tag === 0x30 ? params.value : undefined) };
  const known = SIGNATURE_ALGORITHMS[text];
  return known ? { name: known[0], hash: known[1] } : { name: text, hash: null };
}

/** TLS Feature (RFC 7633) lists status_request: the certificate demands a stapled OCSP response. */
function mustStaple(extValue: Buffer | undefined): boolean {
  if (!extValue) return false;
  return children(readTlv(extValue).value).some(
    (f) => f.tag === 0x02 && intValue(f.value) === TLS_FEATURE_STATUS_REQUEST,
  );
}

/** The SCT list (RFC 6962 section 3.3) is a TLS-encoded list inside an OCTET STRING; each SCT starts with version and log id. */
export function sctLogIds(extValue: Buffer): string[] {
  const list = readTlv(extValue).value;
  const ids = new Set<string>();
  const total = list.readUInt16BE(0);
  for (let at = 2; at + 2 <= Math.min(list.length, 2 + total);) {
    const len = list.readUInt16BE(at);
    const sct = list.subarray(at + 2, at + 2 + len);
    if (sct.length >= 33) ids.add(sct.subarray(1, 33).toString('base64'));
    at += 2 + len;
  }
  return [...ids].sort();
}

function keyFacts(cert: NodeCertificate): Pick<CertificateFacts, 'key_type' | 'key_bits' | 'key_curve'> {
  const key = cert.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  const curve = details.namedCurve ?? null;
  const bits = details.modulusLength ?? (curve ? (CURVE_BITS[curve] ?? null) : null);
  const type = key.asymmetricKeyType ?? null;
  return { key_type: type, key_bits: type === 'ed25519' ? 256 : type === 'ed448' ? 456 : bits, key_curve: curve };
}

/**
 * Reads one certificate into facts, with Node's parse of it when the caller has one. Throws only on bytes that
 * are not a certificate.
 */
export function describeCertificate(der: Buffer, node = new NodeCertificate(der)): CertificateFacts {
  const fields = certificateFields(der);
  const ext = (oid: string) => fields.extensions.get(oid);
  const san = ext(OID_SUBJECT_ALT_NAME);
  const aia = ext(OID_AUTHORITY_INFO_ACCESS);
  const crl = ext(OID_CRL_DISTRIBUTION_POINTS);
  const eku = ext(OID_EXTENDED_KEY_USAGE);
  const sct = ext(OID_SCT_LIST);
  const sig = signatureAlgorithm(der);
  return {
    subject: nameText(fields.subject),
    subject_cn: nameField(fields.subject, OID_COMMON_NAME),
    issuer: nameText(fields.issuer),
    issuer_cn: nameField(fields.issuer, OID_COMMON_NAME),
    serial: node.serialNumber.toUpperCase(),
    not_before: (fields.notBefore ?? new Date(node.validFrom)).toISOString(),
    not_after: (fields.notAfter ?? new Date(node.validTo)).toISOString(),
    sans: (san ? generalNames(readTlv(san).value, DNS_NAME) : []).map(normaliseName).sort(),
    ...keyFacts(node),
    signature_algorithm: sig.name,
    signature_hash: sig.hash,
    sha256: node.fingerprint256.replaceAll(':', '').toLowerCase(),
    self_signed: node.subject === node.issuer && node.verify(node.publicKey),
    is_ca: node.ca,
    must_staple: mustStaple(ext(OID_TLS_FEATURE)),
    sct_log_ids: sct ? sctLogIds(sct) : [],
    ocsp_urls: aia ? ocspUris(aia).sort() : [],
    crl_urls: crl ? crlUris(crl).sort() : [],
    extended_key_usage: eku ? keyPurposes(eku).sort() : null,
  };
}
