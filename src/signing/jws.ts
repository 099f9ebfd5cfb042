// Detached compact JWS (RFC 7515 appendix F) signed with Ed25519 (RFC 8032): `<header>..<signature>`, under the
// fully specified alg `Ed25519` of RFC 9864, which deprecates the polymorphic `EdDSA` of RFC 8037 (it named
// Ed25519 or Ed448 by the key). Both name the same signature over the same key, so signatures made as `EdDSA`
// before the move keep verifying (docs/operations.md, "JWS algorithm"). The payload travels beside the signature
// (the certificate file holds both), and a verifier re-attaches its base64url form, so any JOSE library can check
// it. Ed25519 is deterministic: same payload, same signature.
import { sign, verify } from 'node:crypto';
import { decodeBase64url, encodeBase64url } from '../lib/base64url.ts';
import { canonicalJson } from '../lib/canonical-json.ts';
import { parseStrictJson } from '../lib/strict-json.ts';
import { findVerificationKey, type Jwks } from './jwks.ts';
import { JWS_ALG, type JwsAlg, type PublicJwk, type SigningKey } from './keys.ts';

/**
 * Explicit type of a certificate signature (RFC 8725 section 3.11): the signing key also signs other
 * documents, and the type keeps a signature made for one from being accepted as another.
 */
export const CERTIFICATE_TYP = 'dvs-certificate+jws';

const JWS_ALGS: ReadonlySet<unknown> = new Set<JwsAlg>([JWS_ALG, 'EdDSA']);

export interface JwsHeader {
  alg: JwsAlg;
  kid: string;
  typ: string;
}

const HEADER_MEMBERS = new Set(['alg', 'kid', 'typ']);

const signingInput = (protectedB64: string, payload: Uint8Array): Buffer =>
  Buffer.from(`${protectedB64}.${encodeBase64url(payload)}`, 'ascii');

/** Signs the payload bytes; the result carries no payload (the middle part is empty). */
export function signDetached(
  payload: Uint8Array,
  key: Pick<SigningKey, 'kid' | 'privateKeyObject'>,
  typ: string,
): string {
  const header: JwsHeader = { alg: JWS_ALG, kid: key.kid, typ };
  const protectedB64 = encodeBase64url(Buffer.from(canonicalJson(header), 'utf8'));
  const signature = sign(null, signingInput(protectedB64, payload), key.privateKeyObject);
  return `${protectedB64}..${encodeBase64url(signature)}`;
}

/** Where verification stopped: the JWS text, its header, the key lookup, or the signature itself. */
export type JwsStep = 'format' | 'header' | 'key' | 'signature';

export type DetachedVerification =
  { ok: true; header: JwsHeader; key: PublicJwk } | { ok: false; step: JwsStep; reason: string; header?: JwsHeader };

function readHeader(protectedB64: string, typ: string): { header: JwsHeader } | { reason: string } {
  const bytes = decodeBase64url(protectedB64);
  if (bytes === null) return { reason: 'protected header is not canonical base64url' };
  let header: unknown;
  try {
    header = parseStrictJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    return { reason: `protected header is not UTF-8 JSON (${(err as Error).message})` };
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    return { reason: 'protected header is not a JSON object' };
  // Only the three members this format defines: anything else (crit, b64, jwk, x5u...) changes how a JOSE
  // library would read the signature and has no place in a certificate.
  const extra = Object.keys(header).filter((m) => !HEADER_MEMBERS.has(m));
  if (extra.length > 0) return { reason: `protected header has unexpected members: ${extra.join(', ')}` };
  const { alg, kid, typ: actualTyp } = header as Record<string, unknown>;
  if (!JWS_ALGS.has(alg)) return { reason: `alg is ${JSON.stringify(alg)}, expected "${JWS_ALG}" (or "EdDSA")` };
  if (typeof kid !== 'string' || kid === '') return { reason: 'kid is missing' };
  if (actualTyp !== typ) return { reason: `typ is ${JSON.stringify(actualTyp)}, expected "${typ}"` };
  return { header: { alg: alg as JwsAlg, kid, typ } };
}

/** Verifies a detached JWS over the payload bytes with the key its kid names in the JWK set. */
export function verifyDetached(jws: string, payload: Uint8Array, jwks: Jwks, typ: string): DetachedVerification {
  const parts = jws.split('.');
  if (parts.length !== 3 || parts[1] !== '')
    return { ok: false, step: 'format', reason: 'not a detached compact JWS (<header>..<signature>)' };
  const [protectedB64, , signatureB64] = parts as [string, string, string];
  const read = readHeader(protectedB64, typ);
  if ('reason' in read) return { ok: false, step: 'header', reason: read.reason };
  const { header } = read;
  const key = findVerificationKey(jwks, header.kid);
  if (!key.ok) return { ok: false, step: 'key', reason: key.reason, header };
  // A key that names its algorithm is for that one only (RFC 7517 section 4.4), as JOSE libraries hold it.
  if (key.jwk.alg !== undefined && key.jwk.alg !== header.alg)
    return { ok: false, step: 'key', reason: `key ${header.kid} is for alg ${key.jwk.alg}, not ${header.alg}`, header };
  const signature = decodeBase64url(signatureB64);
  if (signature === null || signature.length !== 64) {
    return { ok: false, step: 'signature', reason: 'signature is not 64 bytes of canonical base64url', header };
  }
  if (!verify(null, signingInput(protectedB64, payload), key.publicKey, signature)) {
    return { ok: false, step: 'signature', reason: `signature does not verify with key ${header.kid}`, header };
  }
  return { ok: true, header, key: key.jwk };
}
