// A key directory's signatures (draft-meunier-http-message-signatures-directory): a JWK set served with one
// RFC 9421 signature per key, tag "http-message-signatures-directory", keyid the key's RFC 7638 thumbprint,
// covering "@authority";req. The service checks callers' directories with it (src/signing/agent-directory.ts) and
// the agents probe checks the scanned site's own directory with it, so both read a directory the same way.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createVerifier, httpbis, type SignatureParameters } from 'http-message-signatures';
import { calculateJwkThumbprint } from 'jose/jwk/thumbprint';
import { decodeBase64url } from './base64url.ts';

const DIRECTORY_TAG = 'http-message-signatures-directory';
/** Clock skew allowed on a directory signature's created/expires (s). */
const SKEW_S = 60;

/** A key the directory lists, with the window its `nbf`/`exp` give (Unix seconds; null: open). */
export interface DirectoryKey {
  keyid: string;
  publicKey: KeyObject;
  nbf: number | null;
  exp: number | null;
}

/** The fetched response: the URL exactly as requested (its authority is what the signatures cover). */
export interface DirectoryResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalTime = (v: unknown): number | null | undefined =>
  v === undefined ? null : typeof v === 'number' && Number.isInteger(v) ? v : undefined;

/** The Ed25519 keys the document lists, by thumbprint; other key types are not Web Bot Auth keys and are skipped. */
export async function listedKeys(document: unknown): Promise<Map<string, DirectoryKey> | string> {
  if (!isObject(document) || !Array.isArray(document.keys)) return 'not a JWK set (no "keys" array)';
  const keys = new Map<string, DirectoryKey>();
  for (const jwk of document.keys) {
    if (!isObject(jwk) || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') continue;
    if ('d' in jwk) return 'a key holds its private part ("d")';
    if (typeof jwk.x !== 'string' || decodeBase64url(jwk.x)?.length !== 32) return "a key's x is not 32 bytes";
    const nbf = optionalTime(jwk.nbf);
    const exp = optionalTime(jwk.exp);
    if (nbf === undefined || exp === undefined) return "a key's nbf or exp is not a whole number of seconds";
    const publicJwk = { kty: 'OKP', crv: 'Ed25519', x: jwk.x };
    const keyid = await calculateJwkThumbprint(publicJwk, 'sha256');
    keys.set(keyid, { keyid, publicKey: createPublicKey({ key: publicJwk, format: 'jwk' }), nbf, exp });
  }
  return keys;
}

/**
 * Whether the response carries a valid directory signature made with this key: the tag, the key's thumbprint as
 * keyid, created and expires present and holding now (within the skew), "@authority" covered.
 */
export async function signedWith(response: DirectoryResponse, key: DirectoryKey): Promise<boolean> {
  const lookup = async (params: SignatureParameters) =>
    params.tag === DIRECTORY_TAG && params.keyid === key.keyid
      ? { id: key.keyid, algs: ['ed25519' as const], verify: createVerifier(key.publicKey, 'ed25519') }
      : null;
  try {
    const verified = await httpbis.verifyMessage(
      {
        keyLookup: lookup,
        requiredParams: ['created', 'expires', 'keyid', 'tag'],
        requiredFields: ['@authority'],
        tolerance: SKEW_S,
      },
      { status: response.status, headers: response.headers },
      { method: 'GET', url: response.url, headers: {} },
    );
    return verified === true;
  } catch {
    return false;
  }
}

/** The thumbprints of the listed keys that signed the response, sorted, or why the document lists no keys. */
export async function keysThatSigned(response: DirectoryResponse, document: unknown): Promise<string[] | string> {
  const listed = await listedKeys(document);
  if (typeof listed === 'string') return listed;
  const signed: string[] = [];
  for (const key of listed.values()) if (await signedWith(response, key)) signed.push(key.keyid);
  return signed.sort();
}
