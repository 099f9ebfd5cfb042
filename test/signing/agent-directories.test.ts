// Callers' key directories: a listed key counts only with its own valid signature on the response (bound to the
// origin it was fetched from), and the cache keeps directories as their headers say, within bounds, never makes a
// request wait past its bound, and keeps failures only briefly.
import { stringMatching } from '../helpers/typed-json.ts';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyDirectory, type DirectoryResponse } from '../../src/signing/agent-directory.ts';
import { AgentDirectories, type DirectoryFetcher } from '../../src/signing/agent-directories.ts';
import { directorySigner } from '../world/sign-directory.ts';
import type { PrivateJwk } from '../world/site-config.ts';

const RFC8032_KEY = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
} as PrivateJwk;
const KEYID = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';
const URL_ = 'https://agent.test/.well-known/http-message-signatures-directory';
const TYPE = 'application/http-message-signatures-directory+json';

const stranger = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as PrivateJwk;
const publicOf = ({ kty, crv, x }: PrivateJwk) => ({ kty, crv, x });

/** A directory response listing `listed`, signed by `signers` for a request to `signedFor`. */
async function directoryResponse(
  listed: PrivateJwk[],
  signers: PrivateJwk[],
  opts: { signedFor?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<DirectoryResponse> {
  const signature = await directorySigner(signers)({ method: 'GET', url: opts.signedFor ?? URL_, headers: {} }, 200);
  const body = opts.body ?? JSON.stringify({ keys: listed.map(publicOf) });
  return {
    url: URL_,
    status: 200,
    headers: { 'content-type': TYPE, ...signature, ...opts.headers },
    body: Buffer.from(body),
    truncated: false,
  };
}

describe('verifyDirectory', () => {
  it('accepts a directory signed by the key it lists', async () => {
    const result = await verifyDirectory(await directoryResponse([RFC8032_KEY], [RFC8032_KEY]));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.directory.origin).toBe('https://agent.test');
      expect([...result.directory.keys.keys()]).toEqual([KEYID]);
    }
  });

  it('keeps only the listed keys that signed: a listed key without its signature is not vouched for', async () => {
    const other = stranger();
    const result = await verifyDirectory(await directoryResponse([RFC8032_KEY, other], [RFC8032_KEY]));
    expect(result.ok && [...result.directory.keys.keys()]).toEqual([KEYID]);
  });

  it('refuses a bad self-signature: signed by a key it does not list', async () => {
    expect(await verifyDirectory(await directoryResponse([RFC8032_KEY], [stranger()]))).toEqual({
      ok: false,
      reason: 'the directory carries no valid signature by a key it lists',
    });
  });

  it('refuses a directory copied from another origin (its signature covers the authority it was served at)', async () => {
    const copied = await directoryResponse([RFC8032_KEY], [RFC8032_KEY], {
      signedFor: 'https://elsewhere.test/.well-known/http-message-signatures-directory',
    });
    expect(await verifyDirectory(copied)).toMatchObject({ ok: false });
  });

  it('refuses what is not a directory: a status, a media type, JSON, a private key', async () => {
    const good = await directoryResponse([RFC8032_KEY], [RFC8032_KEY]);
    expect(await verifyDirectory({ ...good, status: 404 })).toEqual({
      ok: false,
      reason: 'the directory answered 404',
    });
    expect(await verifyDirectory({ ...good, headers: { ...good.headers, 'content-type': 'text/html' } })).toEqual({
      ok: false,
      reason: 'the directory is served as "text/html"',
    });
    expect(await verifyDirectory({ ...good, body: Buffer.from('{"keys": [') })).toMatchObject({
      ok: false,
      reason: stringMatching(/^the directory is not JSON/),
    });
    const leaked = await directoryResponse([RFC8032_KEY], [RFC8032_KEY], {
      body: JSON.stringify({ keys: [RFC8032_KEY] }),
    });
    expect(await verifyDirectory(leaked)).toMatchObject({ ok: false, reason: stringMatching(/private part/) });
  });
});

describe('AgentDirectories', () => {
  function counting(fetch: DirectoryFetcher) {
    const calls: string[] = [];
    const wrapped: DirectoryFetcher = (url, signal) => (calls.push(url), fetch(url, signal));
    return { calls, fetch: wrapped };
  }

  it('fetches a directory once and answers later requests from the cache', async () => {
    const response = await directoryResponse([RFC8032_KEY], [RFC8032_KEY], {
      headers: { 'cache-control': 'max-age=600' },
    });
    const { calls, fetch } = counting(async () => response);
    const directories = new AgentDirectories({ fetch });
    const [a, b] = await Promise.all([directories.get(new URL(URL_), 1000), directories.get(new URL(URL_), 1000)]);
    const c = await directories.get(new URL(URL_), 1000);
    expect([a.ok, b.ok, c.ok]).toEqual([true, true, true]);
    expect(calls).toEqual([URL_]);
  });

  it('answers an unreachable directory with the reason, and keeps the failure only briefly', async () => {
    const { calls, fetch } = counting(async () => {
      throw new Error('connect ECONNREFUSED');
    });
    const directories = new AgentDirectories({ fetch, negativeTtlMs: 50 });
    expect(await directories.get(new URL(URL_), 1000)).toEqual({
      ok: false,
      reason: 'cannot be fetched: connect ECONNREFUSED',
    });
    await directories.get(new URL(URL_), 1000);
    expect(calls).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 80));
    await directories.get(new URL(URL_), 1000);
    expect(calls).toHaveLength(2);
  });

  it('keeps a directory that forbids caching for the minimum time, not for no time', async () => {
    const response = await directoryResponse([RFC8032_KEY], [RFC8032_KEY], {
      headers: { 'cache-control': 'no-store' },
    });
    const { calls, fetch } = counting(async () => response);
    const directories = new AgentDirectories({ fetch, minTtlMs: 60_000 });
    await directories.get(new URL(URL_), 1000);
    await directories.get(new URL(URL_), 1000);
    expect(calls).toHaveLength(1);
  });

  it('never holds a request past its bound: a slow fetch goes on and serves the next request', async () => {
    const response = await directoryResponse([RFC8032_KEY], [RFC8032_KEY]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const directories = new AgentDirectories({ fetch: async () => (await gate, response) });
    const started = Date.now();
    expect(await directories.get(new URL(URL_), 50)).toMatchObject({
      ok: false,
      reason: stringMatching(/within 50 ms/),
    });
    expect(Date.now() - started).toBeLessThan(1000);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect((await directories.get(new URL(URL_), 50)).ok).toBe(true);
  });

  it('bounds the fetches in flight and the directories kept', async () => {
    const never: DirectoryFetcher = () => new Promise(() => undefined);
    const directories = new AgentDirectories({ fetch: never, maxInFlight: 1 });
    await directories.get(new URL('https://one.test/'), 10);
    expect(await directories.get(new URL('https://two.test/'), 10)).toEqual({
      ok: false,
      reason: 'too many key directories are being fetched; try again shortly',
    });
    const response = await directoryResponse([RFC8032_KEY], [RFC8032_KEY]);
    const { calls, fetch } = counting(async () => response);
    const small = new AgentDirectories({ fetch, maxEntries: 1 });
    await small.get(new URL(URL_), 1000);
    await small.get(new URL('https://b.test/'), 1000);
    await small.get(new URL('https://b.test/'), 1000);
    await small.get(new URL(URL_), 1000);
    // The one place is taken: b.test is fetched each time it is asked for, the first directory stays kept.
    expect(calls).toEqual([URL_, 'https://b.test/', 'https://b.test/']);
  });
});
