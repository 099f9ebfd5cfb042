// One Ed25519 signature as the service makes it (node:crypto, OpenSSL) against @noble/ed25519 (pure JS, the
// tests' independent implementation), over a certificate-sized message; CPU time per signature.
import { randomBytes, sign } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { keyFromSeed } from '../src/signing/keys.ts';

/** Mean CPU microseconds per call (the process's user + system time, so other load on the machine counts less). */
async function perCall(fn: () => unknown, runs: number): Promise<number> {
  for (let i = 0; i < Math.min(100, runs); i++) await fn();
  const t0 = process.cpuUsage();
  for (let i = 0; i < runs; i++) await fn();
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / runs;
}

export default async function bench(): Promise<void> {
  const seed = new Uint8Array(randomBytes(32));
  const key = await keyFromSeed('bench', seed, '2026-01-01T00:00:00Z');
  const message = randomBytes(4096);
  const native = await perCall(() => sign(null, message, key.privateKeyObject), 2000);
  const noble = await perCall(() => ed.signAsync(message, seed), 300);
  console.log('| figure | value |\n|---|---|');
  console.log(`| Ed25519 signature, node:crypto (every hot path) | ${native.toFixed(0)} us |`);
  console.log(`| Ed25519 signature, @noble/ed25519 (tests only) | ${noble.toFixed(0)} us |`);
}
