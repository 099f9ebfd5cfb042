// The service's public JWK set (what /.well-known/jwks.json serves) and the key lookup verifiers do in any
// JWK set. Retired keys stay published so certificates signed before a rotation keep verifying: the operator
// drops their public JWKs into `<dataDir>/retired-keys/*.json`.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint } from 'jose/jwk/thumbprint';
import { decodeBase64url } from '../lib/base64url.ts';
import { JWS_ALG, loadSigningKey, type PublicJwk } from './keys.ts';

/** A JWK as found in a published set; the members that pick a key, the rest is read by asVerificationKey. */
export interface Jwk {
  kty: string;
  kid?: string;
}

export interface Jwks {
  keys: Jwk[];
}

/** The set this service publishes: its own Ed25519 keys only. */
export interface ServiceJwks {
  keys: PublicJwk[];
}

export class JwksError extends Error {
  override name = 'JwksError';
}

const RETIRED_KEYS_DIR = 'retired-keys';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A member's value for a message: a string as it is, anything else as JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Reads a JWK as an Ed25519 verification key, or says why it is not one. `alg` and `use` may be absent (both
 * are optional in RFC 7517) but must not say something else; a private part is refused outright, since a set
 * that publishes one has leaked its key.
 */
export function asVerificationKey(value: unknown): { ok: true; jwk: PublicJwk } | { ok: false; reason: string } {
  if (!isObject(value)) return { ok: false, reason: 'not a JSON object' };
  const { kty, crv, x, kid, alg, use } = value;
  if ('d' in value) return { ok: false, reason: 'it holds a private key ("d"); only public keys may be published' };
  if (kty !== 'OKP' || crv !== 'Ed25519')
    return { ok: false, reason: `kty ${String(kty)} crv ${String(crv)} is not an Ed25519 key` };
  if (typeof kid !== 'string' || kid === '') return { ok: false, reason: 'no kid' };
  if (typeof x !== 'string' || decodeBase64url(x)?.length !== 32)
    return { ok: false, reason: 'x is not 32 bytes of base64url' };
  if (alg !== undefined && alg !== JWS_ALG && alg !== 'EdDSA')
    return { ok: false, reason: `alg ${shown(alg)} is neither ${JWS_ALG} nor EdDSA` };
  if (use !== undefined && use !== 'sig') return { ok: false, reason: `use ${shown(use)} is not sig` };
  const jwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x, kid, use: 'sig' };
  if (alg !== undefined) jwk.alg = alg;
  return { ok: true, jwk };
}

/** Public JWKs of retired signing keys, ordered by kid, as published; none when the folder does not exist. */
export function loadRetiredKeys(dataDir: string): PublicJwk[] {
  const dir = path.join(dataDir, RETIRED_KEYS_DIR);
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const keys = files.map((file) => {
    const where = path.join(dir, file);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(where, 'utf8'));
    } catch (err) {
      throw new JwksError(`retired key ${where}: ${(err as Error).message}`);
    }
    const key = asVerificationKey(parsed);
    if (!key.ok) throw new JwksError(`retired key ${where}: ${key.reason}`);
    // Published without alg like the current key: files retired before the move to Ed25519 say EdDSA.
    const { kty, crv, x, kid, use } = key.jwk;
    return { kty, crv, x, kid, use };
  });
  return keys.sort((a, b) => (a.kid < b.kid ? -1 : a.kid > b.kid ? 1 : 0));
}

/** The published set: the current key first, then the retired ones. Two keys with one kid would be ambiguous. */
export function buildJwks(current: PublicJwk, retired: PublicJwk[]): ServiceJwks {
  const keys = [current, ...retired];
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key.kid)) throw new JwksError(`two published keys share the kid ${key.kid}`);
    seen.add(key.kid);
  }
  return { keys };
}

/** The JWK set of the data directory's signing key (created on first use) and its retired keys. */
export async function loadJwks(dataDir: string): Promise<ServiceJwks> {
  const key = await loadSigningKey(dataDir);
  return buildJwks(key.publicJwk, loadRetiredKeys(dataDir));
}

/** Checks that a document (e.g. a fetched jwks.json) has the shape of a JWK set; the keys are read later. */
export function parseJwks(value: unknown, source: string): Jwks {
  if (!isObject(value) || !Array.isArray(value.keys)) throw new JwksError(`${source}: not a JWK set (no "keys" array)`);
  value.keys.forEach((key, i) => {
    if (!isObject(key) || typeof key.kty !== 'string') throw new JwksError(`${source}: keys[${i}] is not a JWK`);
  });
  return value as unknown as Jwks;
}

export type KeyLookup = { ok: true; jwk: PublicJwk; publicKey: KeyObject } | { ok: false; reason: string };

/** The one Ed25519 key of the set with this kid. */
export function findVerificationKey(jwks: Jwks, kid: string): KeyLookup {
  const matches = jwks.keys.filter((k) => k.kid === kid);
  if (matches.length === 0) return { ok: false, reason: `no key with kid ${kid} in the JWK set` };
  if (matches.length > 1) return { ok: false, reason: `${matches.length} keys with kid ${kid} in the JWK set` };
  const key = asVerificationKey(matches[0]);
  if (!key.ok) return { ok: false, reason: `key ${kid}: ${key.reason}` };
  const { kty, crv, x } = key.jwk;
  return { ok: true, jwk: key.jwk, publicKey: createPublicKey({ key: { kty, crv, x }, format: 'jwk' }) };
}

/** RFC 7638 thumbprint (SHA-256, base64url) over the key's required members. */
export function thumbprintOf(jwk: PublicJwk): Promise<string> {
  return calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, 'sha256');
}
