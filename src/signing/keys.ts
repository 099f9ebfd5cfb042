// Ed25519 keys kept in the data directory: created on first use (file mode 0600), loaded afterwards.
// The service has two: the signing key (certificates, response signatures) and the agent key (Web Bot Auth
// signatures on outgoing probe requests), so rotating one never disturbs the other.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint } from 'jose/jwk/thumbprint';
import { encodeBase64url as b64url } from '../lib/base64url.ts';

export const SIGNING_KID = 'service-signing-key-v1';

/** What this service signs with (RFC 9864 section 2.2). */
export const JWS_ALG = 'Ed25519';

/** The algorithms a signature by an Ed25519 key may name: RFC 9864's, and RFC 8037's for older signatures. */
export type JwsAlg = typeof JWS_ALG | 'EdDSA';

/**
 * An Ed25519 public key as a JWK. The service publishes its own without `alg` (optional, RFC 7517 section 4.4):
 * a key pinned to one alg would refuse the other, and its certificates carry `Ed25519` (RFC 9864) since the
 * move and `EdDSA` before it. A key read from another set keeps the alg it names.
 */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg?: JwsAlg;
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

/** PKCS #8 (RFC 8410) for an Ed25519 private key, up to its 32-byte seed: a JWK import would need x too. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Builds the key from a seed (used by tests with fixed seeds, and by the loader). */
export async function keyFromSeed(kid: string, seed: Uint8Array, createdAt: string): Promise<SigningKey> {
  if (seed.length !== 32) throw new Error(`key ${kid}: an Ed25519 seed is 32 bytes, got ${seed.length}`);
  // OpenSSL derives the public key from the seed (RFC 8032 section 5.1.5).
  const privateKeyObject = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const x = createPublicKey(privateKeyObject).export({ format: 'jwk' }).x!;
  const publicKey = new Uint8Array(Buffer.from(x, 'base64url'));
  const publicJwk: PublicJwk = { kty: 'OKP', crv: 'Ed25519', x, kid, use: 'sig' };
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
      throw new Error(`key file ${keyPath}: ${(err as Error).message}`, { cause: err });
  }
  if (stored) {
    if (stored.crv !== 'Ed25519' || typeof stored.d !== 'string')
      throw new Error(`key file ${keyPath}: not an Ed25519 key`);
    const key = await keyFromSeed(stored.kid ?? kid, Buffer.from(stored.d, 'base64url'), stored.created_at);
    if (key.publicJwk.x !== stored.x) throw new Error(`key file ${keyPath}: public key does not match the seed`);
    return key;
  }
  const key = await freshKey(kid, now);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(keyPath, keyFileText(key), { mode: 0o600, flag: 'wx' });
  chmodSync(keyPath, 0o600);
  return key;
}

async function freshKey(kid: string, now: () => Date): Promise<SigningKey> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  return keyFromSeed(kid, new Uint8Array(seed), now().toISOString());
}

const keyFileText = (key: SigningKey): string => {
  const body: KeyFile = {
    kid: key.kid,
    crv: 'Ed25519',
    d: b64url(key.seed),
    x: key.publicJwk.x,
    created_at: key.createdAt,
  };
  return JSON.stringify(body, null, 2) + '\n';
};

export const SIGNING_KEY_FILE = 'signing-key.json';
const RETIRED_KEYS_DIR = 'retired-keys';

/** The kid after this one: service-signing-key-v1 -> -v2 -> -v3 ... */
export function nextKid(kid: string): string {
  const m = /^(.*-v)(\d+)$/.exec(kid);
  if (!m) throw new Error(`signing key ${kid} has no -v<number> suffix to count on from`);
  return `${m[1]}${Number(m[2]) + 1}`;
}

/**
 * `dvs keys rotate`: the current signing key's public JWK joins `retired-keys/` (so certificates it signed keep
 * verifying), and a new key with the next kid signs from now on. The new key file replaces the old
 * one atomically (a running service picks it up at its next signature, src/signing/key-store.ts); the retired
 * private key is not kept, since nothing may sign with it again.
 */
export async function rotateSigningKey(
  dataDir: string,
  now: () => Date = () => new Date(),
): Promise<{ retired: SigningKey; current: SigningKey }> {
  const retired = await loadSigningKey(dataDir);
  const current = await freshKey(nextKid(retired.kid), now);
  const retiredDir = path.join(dataDir, RETIRED_KEYS_DIR);
  mkdirSync(retiredDir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(retiredDir, `${retired.kid}.json`), JSON.stringify(retired.publicJwk, null, 2) + '\n', {
    mode: 0o644,
    flag: 'wx',
  });
  const temp = path.join(dataDir, `${SIGNING_KEY_FILE}.new`);
  writeFileSync(temp, keyFileText(current), { mode: 0o600, flag: 'w' });
  renameSync(temp, path.join(dataDir, SIGNING_KEY_FILE));
  return { retired, current };
}

export const loadSigningKey = (dataDir: string): Promise<SigningKey> =>
  loadOrCreateKey(dataDir, SIGNING_KEY_FILE, SIGNING_KID);
export const loadAgentKey = (dataDir: string): Promise<SigningKey> =>
  loadOrCreateKey(dataDir, 'agent-key.json', 'agent-key');
