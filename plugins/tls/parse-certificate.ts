// Certificate facts from DER bytes: node:crypto for what it exposes (names, key, fingerprint, host match) and
// @peculiar/x509 plus a small DER walk for the extensions Node 20 does not parse.
import 'reflect-metadata';
import { X509Certificate as NodeCertificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { children, intValue, oidText, readTlv } from './der.ts';

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
  signature_hash: string | null;
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
const OID_RSASSA_PSS = '1.2.840.113549.1.1.10';
const TLS_FEATURE_STATUS_REQUEST = 5;

const SIGNATURE_ALGORITHMS: Record<string, [name: string, hash: string]> = {
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

const HASH_OIDS: Record<string, string> = {
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
function pssHash(params: Buffer | undefined): string | null {
  const hashField = params ? children(params).find((f) => f.tag === 0xa0) : undefined;
  if (!hashField) return 'sha1';
  const [oid] = children(readTlv(hashField.value).value);
  return oid ? (HASH_OIDS[oidText(oid.value)] ?? null) : null;
}

function signatureAlgorithm(der: Buffer): { name: string; hash: string | null } {
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
function mustStaple(ext: x509.Extension | null): boolean {
  if (!ext) return false;
  return children(readTlv(Buffer.from(ext.value)).value).some(
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

function commonName(dn: x509.Name): string | null {
  const cn = dn.getField('CN')[0];
  return cn === undefined ? null : cn;
}

function generalNameUrls(names: x509.GeneralName[]): string[] {
  return names
    .filter((n) => n.type === 'url')
    .map((n) => n.value)
    .sort();
}

function crlUrls(ext: x509.CRLDistributionPointsExtension | null): string[] {
  if (!ext) return [];
  const urls: string[] = [];
  for (const point of ext.distributionPoints) {
    for (const name of point.distributionPoint?.fullName ?? []) {
      if (name.uniformResourceIdentifier) urls.push(name.uniformResourceIdentifier);
    }
  }
  return urls.sort();
}

function keyFacts(cert: NodeCertificate): Pick<CertificateFacts, 'key_type' | 'key_bits' | 'key_curve'> {
  const key = cert.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  const curve = details.namedCurve ?? null;
  const bits = details.modulusLength ?? (curve ? (CURVE_BITS[curve] ?? null) : null);
  const type = key.asymmetricKeyType ?? null;
  return { key_type: type, key_bits: type === 'ed25519' ? 256 : type === 'ed448' ? 456 : bits, key_curve: curve };
}

/** Reads one certificate into facts. Throws only on bytes that are not a certificate. */
export function describeCertificate(der: Buffer): CertificateFacts {
  const node = new NodeCertificate(der);
  const cert = new x509.X509Certificate(der);
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  const aia = cert.getExtension(x509.AuthorityInfoAccessExtension);
  const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
  const sct = cert.getExtension(OID_SCT_LIST);
  const sig = signatureAlgorithm(der);
  return {
    subject: cert.subject,
    subject_cn: commonName(cert.subjectName),
    issuer: cert.issuer,
    issuer_cn: commonName(cert.issuerName),
    serial: node.serialNumber.toUpperCase(),
    not_before: cert.notBefore.toISOString(),
    not_after: cert.notAfter.toISOString(),
    sans: (san?.names.items ?? [])
      .filter((n) => n.type === 'dns')
      .map((n) => n.value.toLowerCase().replace(/\.$/, ''))
      .sort(),
    ...keyFacts(node),
    signature_algorithm: sig.name,
    signature_hash: sig.hash,
    sha256: node.fingerprint256.replaceAll(':', '').toLowerCase(),
    self_signed: node.subject === node.issuer && node.verify(node.publicKey),
    is_ca: node.ca,
    must_staple: mustStaple(cert.getExtension(OID_TLS_FEATURE)),
    sct_log_ids: sct ? sctLogIds(Buffer.from(sct.value)) : [],
    ocsp_urls: aia ? generalNameUrls(aia.ocsp) : [],
    crl_urls: crlUrls(cert.getExtension(x509.CRLDistributionPointsExtension)),
    extended_key_usage: eku ? Array.from(eku.usages, String).sort() : null,
  };
}
