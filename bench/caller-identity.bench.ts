// What caller identity costs a request: verifying a Web Bot Auth signature (web-bot-auth as the client) against a
// directory the cache holds, the check an unsigned request goes through, and the key store's look at the signing
// key file before each signature (the live rotation).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { verifyDirectory } from '../src/signing/agent-directory.ts';
import { verifyCallerSignature, type SignedRequest } from '../src/signing/caller-signature.ts';
import { SigningKeyStore } from '../src/signing/key-store.ts';
import { directorySigner } from '../test/world/sign-directory.ts';

const KEY = {
  kty: 'OKP' as const,
  crv: 'Ed25519' as const,
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
};
const DIRECTORY = 'https://agent.test/.well-known/http-message-signatures-directory';

/** Mean microseconds per call of an async `fn` after a warm-up. */
async function perCall(fn: () => Promise<unknown>, runs: number): Promise<number> {
  for (let i = 0; i < Math.min(100, runs); i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  return ((performance.now() - t0) * 1000) / runs;
}

export default async function bench(): Promise<void> {
  const signature = await directorySigner([KEY])({ method: 'GET', url: DIRECTORY, headers: {} }, 200);
  const body = Buffer.from(JSON.stringify({ keys: [{ kty: KEY.kty, crv: KEY.crv, x: KEY.x }] }));
  const headers = { 'content-type': 'application/http-message-signatures-directory+json', ...signature };
  const directory = await verifyDirectory({ url: DIRECTORY, status: 200, headers, body, truncated: false });
  const cached = { directory: async () => directory };
  const url = 'https://dvs.example.net/api/quickscan';
  const created = new Date();
  const signed = await signatureHeaders(
    new Request(url, { headers: { 'Signature-Agent': `"${DIRECTORY}"` } }),
    await signerFromJWK(KEY),
    { created, expires: new Date(created.getTime() + 60_000) },
  );
  const request: SignedRequest = {
    method: 'POST',
    url,
    headers: {
      'signature-agent': `"${DIRECTORY}"`,
      'signature-input': signed['Signature-Input'],
      signature: signed.Signature,
    },
  };
  const unsigned: SignedRequest = { method: 'POST', url, headers: { 'content-type': 'application/json' } };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-bench-keys-'));
  const store = await SigningKeyStore.open(dataDir);

  const verified = await perCall(() => verifyCallerSignature(request, cached), 2000);
  const none = await perCall(() => verifyCallerSignature(unsigned, cached), 20000);
  const fetchedDirectory = await perCall(
    () => verifyDirectory({ url: DIRECTORY, status: 200, headers, body, truncated: false }),
    500,
  );
  const keyLook = await perCall(() => store.current(), 20000);
  rmSync(dataDir, { recursive: true, force: true });
  const us = (x: number) => `${x.toFixed(1)} us`;
  console.log('| figure | value |\n|---|---|');
  console.log(`| signed request verified, directory cached | ${us(verified)} |`);
  console.log(`| unsigned request through the verifier (the middleware skips even this) | ${us(none)} |`);
  console.log(
    `| directory response checked once per fetch (JSON, thumbprint, its signature) | ${us(fetchedDirectory)} |`,
  );
  console.log(`| signing key looked up before a signature (stat of the key file) | ${us(keyLook)} |`);
}
