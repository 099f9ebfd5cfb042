// node:crypto (OpenSSL) signs everything in the service; @noble/ed25519 is the independent implementation the
// tests hold it to (issue 12 item 1). Ed25519 is deterministic (RFC 8032), so both must give the same bytes.
import { sign, verify } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { fc, test } from '@fast-check/vitest';
import { keyFromSeed } from '../../src/signing/keys.ts';

test.prop([fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 512 })], { numRuns: 60 })(
  'node:crypto and @noble/ed25519 give the same signature bytes, and each verifies the other',
  async (seed, message) => {
    const key = await keyFromSeed('k', seed, '2026-01-01T00:00:00Z');
    const publicKey = await ed.getPublicKeyAsync(seed);
    if (Buffer.compare(Buffer.from(publicKey), Buffer.from(key.publicKey)) !== 0) throw new Error('public keys differ');
    const native = sign(null, message, key.privateKeyObject);
    const noble = await ed.signAsync(message, seed);
    if (Buffer.compare(native, Buffer.from(noble)) !== 0) throw new Error('signatures differ');
    if (!(await ed.verifyAsync(native, message, publicKey))) throw new Error('noble refuses the native signature');
    if (!verify(null, message, key.publicKeyObject, noble)) throw new Error('node:crypto refuses the noble signature');
    const flipped = Uint8Array.from(noble);
    flipped[message.length % 64]! ^= 1;
    if (verify(null, message, key.publicKeyObject, flipped)) throw new Error('a flipped bit verified');
  },
);
