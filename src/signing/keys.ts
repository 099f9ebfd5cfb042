// Ed25519 keys kept in the data directory: created on first use (file mode 0600), loaded afterwards.
// The service has two: the signing key (certificates, response signatures) and the agent key (Web Bot Auth
// signatures on outgoing probe requests), so rotating one never disturbs the other.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import * as ed from '@noble/ed25519';
import { calculateJwkThumbprint } from 'jose';
import { encodeBase64url as b64url } from '../lib/base64url.ts';

export const SIGNING_KID = 'service-signing-key-v1';

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface SigningKey {
  kid: string;
  /** The 32-byte Ed25519 seed. */
  seed: Uint8Array;
  publicKey: Uint8Array;
  privateKeyObject: KeyObject;
  publicKeyObject: KeyObject;
  publicJwk: PublicJwk;
  /** RFC 7638 thumbprint of the public JWK (SHA-256, base64url). */
  thumbprint: string;
  createdAt: string;
}

interface KeyFile {
  kid: string;
  crv: 'Ed25519';
  d: string;
  x: string;
  created_at: string;
}

/** Builds the key from a seed (used by tests with fixed seeds, and by the loader). */
export async function keyFromSeed(kid: string, seed: Uint8Array, createdAt: string): Promise<SigningKey> {
  if (seed.length !== 32) throw new Error(`key ${kid}: an Ed25519 seed is 32 bytes, got ${seed.length}`);
  const publicKey = await ed.getPublicKeyAsync(seed);
  const x = b64url(publicKey);
  const privateKeyObject = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x, d: b64url(seed) }, format: 'jwk' });
  const publicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' };
  return {
    kid,
    seed,
    publicKey,
    privateKeyObject,
    publicKeyObject: createPublicKey(privateKeyObject),
    publicJwk,
    thumbprint: await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x }, 'sha256'),
    createdAt,
  };
}

/**
 * Loads `<dataDir>/<file>`, or creates it with a fresh key. `now` dates a new key; it is the one place this
 * module reads the clock, and only when it writes a file.
 */
async function loadOrCreateKey(
  dataDir: string,
  file: string,
  kid: string,
  now: () => Date = () => new Date(),
): Promise<SigningKey> {
  const keyPath = path.join(dataDir, file);
  let stored: KeyFile | null = null;
  try {
    stored = JSON.parse(readFileSync(keyPath, 'utf8')) as KeyFile;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`key file ${keyPath}: ${(err as Error).message}`);
  }
  if (stored) {
    if (stored.crv !== 'Ed25519' || typeof stored.d !== 'string')
      throw new Error(`key file ${keyPath}: not an Ed25519 key`);
    const key = await keyFromSeed(stored.kid ?? kid, Buffer.from(stored.d, 'base64url'), stored.created_at);
    if (key.publicJwk.x !== stored.x) throw new Error(`key file ${keyPath}: public key does not match the seed`);
    return key;
  }
  const seed = ed.utils.randomSecretKey();
  const key = await keyFromSeed(kid, seed, now().toISOString());
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const body: KeyFile = { kid, crv: 'Ed25519', d: b64url(seed), x: key.publicJwk.x, created_at: key.createdAt };
  writeFileSync(keyPath, JSON.stringify(body, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(keyPath, 0o600);
  return key;
}

export const loadSigningKey = (dataDir: string): Promise<SigningKey> =>
  loadOrCreateKey(dataDir, 'signing-key.json', SIGNING_KID);
export const loadAgentKey = (dataDir: string): Promise<SigningKey> =>
  loadOrCreateKey(dataDir, 'agent-key.json', 'agent-key');
