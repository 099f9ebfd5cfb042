// Web Bot Auth on incoming requests, judged without a network: the independent web-bot-auth package signs as a
// client would, and the directory is handed in. Every way a signature can fall short is `invalid` with its
// reason; a request without a Web Bot Auth signature is `unsigned`.
import { stringMatching } from '../helpers/typed-json.ts';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { describe, expect, it } from 'vitest';
import type { DirectoryKey, DirectoryResult } from '../../src/signing/agent-directory.ts';
import { DIRECTORY_PATH } from '../../src/signing/agent-directory.ts';
import { MAX_SIGNATURES, verifyCallerSignature, type SignedRequest } from '../../src/signing/caller-signature.ts';

/** RFC 8032 section 7.1 TEST 1, as a JWK; its RFC 7638 thumbprint is the Web Bot Auth keyid. */
const RFC8032_KEY = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
};
const KEYID = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';
const DIRECTORY = 'https://agent.test/.well-known/http-message-signatures-directory';
const TARGET = 'https://dvs.example.net/api/quickscan';

const strangerJwk = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as typeof RFC8032_KEY;

function directoryOf(keys: Array<{ jwk: { x: string }; keyid: string; nbf?: number; exp?: number }>): DirectoryResult {
  const map = new Map<string, DirectoryKey>();
  for (const { jwk, keyid, nbf, exp } of keys)
    map.set(keyid, {
      keyid,
      publicKey: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }),
      nbf: nbf ?? null,
      exp: exp ?? null,
    });
  return { ok: true, directory: { origin: 'https://agent.test', keys: map } };
}

const trusting = (result: DirectoryResult) => ({ directory: async () => result });
const rfcDirectory = () => directoryOf([{ jwk: RFC8032_KEY, keyid: KEYID }]);

/** A request signed by the web-bot-auth package, `offsetS` seconds from now, valid for `lifetimeS`. */
async function signed(
  opts: { jwk?: typeof RFC8032_KEY; agent?: string; offsetS?: number; lifetimeS?: number; url?: string } = {},
): Promise<SignedRequest> {
  const agent = opts.agent ?? `"${DIRECTORY}"`;
  const url = opts.url ?? TARGET;
  const created = new Date((Math.floor(Date.now() / 1000) + (opts.offsetS ?? 0)) * 1000);
  const expires = new Date(created.getTime() + (opts.lifetimeS ?? 60) * 1000);
  const request = new Request(url, { method: 'POST', headers: { 'Signature-Agent': agent } });
  const headers = await signatureHeaders(request, await signerFromJWK(opts.jwk ?? RFC8032_KEY), { created, expires });
  return {
    method: 'POST',
    url,
    headers: { 'signature-agent': agent, 'signature-input': headers['Signature-Input'], signature: headers.Signature },
  };
}

describe('verifyCallerSignature', () => {
  it('verifies a web-bot-auth signature by a key of the directory, as the directory origin', async () => {
    expect(await verifyCallerSignature(await signed(), trusting(rfcDirectory()))).toEqual({
      status: 'verified',
      agent: 'https://agent.test',
      keyid: KEYID,
    });
  });

  it('reads Signature-Agent as a dictionary keyed by the signature label, and an origin as its well-known path', async () => {
    let asked = '';
    const lookup = { directory: async (url: URL) => ((asked = url.href), rfcDirectory()) };
    const request = await signed({ agent: 'sig1="https://agent.test"' });
    expect(await verifyCallerSignature(request, lookup)).toMatchObject({ status: 'verified' });
    expect(asked).toBe(DIRECTORY);
  });

  it('treats a request without a web-bot-auth signature as unsigned, and asks no directory', async () => {
    const never = {
      directory: async (): Promise<DirectoryResult> => {
        throw new Error('no lookup expected');
      },
    };
    expect(await verifyCallerSignature({ method: 'GET', url: TARGET, headers: {} }, never)).toEqual({
      status: 'unsigned',
    });
    const other = { 'signature-input': 'sig1=("@method");created=1;keyid="k";tag="other"', signature: 'sig1=:AA==:' };
    expect(await verifyCallerSignature({ method: 'GET', url: TARGET, headers: other }, never)).toEqual({
      status: 'unsigned',
    });
  });

  it('refuses an expired signature', async () => {
    const verdict = await verifyCallerSignature(
      await signed({ offsetS: -290, lifetimeS: 60 }),
      trusting(rfcDirectory()),
    );
    expect(verdict).toMatchObject({ status: 'invalid', reason: 'the signature has expired' });
  });

  it('refuses a replayed signature: an old created, even when expires is still ahead', async () => {
    const verdict = await verifyCallerSignature(
      await signed({ offsetS: -3600, lifetimeS: 7200 }),
      trusting(rfcDirectory()),
    );
    expect(verdict).toMatchObject({ status: 'invalid', reason: stringMatching(/replayed/) });
  });

  it('refuses a signature created in the future beyond the skew', async () => {
    const verdict = await verifyCallerSignature(await signed({ offsetS: 600 }), trusting(rfcDirectory()));
    expect(verdict).toMatchObject({ status: 'invalid', reason: 'created is in the future' });
  });

  it('refuses a key the directory does not list (wrong key)', async () => {
    const stranger = strangerJwk();
    const verdict = await verifyCallerSignature(await signed({ jwk: stranger }), trusting(rfcDirectory()));
    expect(verdict).toMatchObject({
      status: 'invalid',
      agent: 'https://agent.test',
      reason: stringMatching(/is not a key the directory lists/),
    });
  });

  it('refuses a signature made by another key under a listed keyid', async () => {
    // The directory lists the stranger's key under the RFC key's keyid: the keyid matches, the signature cannot.
    const stranger = strangerJwk();
    const verdict = await verifyCallerSignature(
      await signed(),
      trusting(directoryOf([{ jwk: stranger, keyid: KEYID }])),
    );
    expect(verdict).toMatchObject({ status: 'invalid', reason: stringMatching(/does not verify/) });
  });

  it('refuses a tampered component: another authority, another Signature-Agent', async () => {
    const request = await signed();
    const elsewhere = { ...request, url: 'https://other.example/api/quickscan' };
    expect(await verifyCallerSignature(elsewhere, trusting(rfcDirectory()))).toMatchObject({
      status: 'invalid',
      reason: stringMatching(/does not verify/),
    });
    const swapped = {
      ...request,
      headers: { ...request.headers, 'signature-agent': '"https://agent.test"' },
    };
    expect(await verifyCallerSignature(swapped, trusting(rfcDirectory()))).toMatchObject({
      status: 'invalid',
      reason: stringMatching(/does not verify/),
    });
  });

  it('refuses a signature that does not cover signature-agent', async () => {
    const request = await signed();
    const input = request.headers['signature-input'] as string;
    const narrowed = {
      ...request,
      headers: { ...request.headers, 'signature-input': input.replace(' "signature-agent"', '') },
    };
    expect(await verifyCallerSignature(narrowed, trusting(rfcDirectory()))).toMatchObject({
      status: 'invalid',
      reason: 'the signature does not cover signature-agent',
    });
  });

  it('refuses a key outside its nbf/exp window', async () => {
    const now = Math.floor(Date.now() / 1000);
    const early = directoryOf([{ jwk: RFC8032_KEY, keyid: KEYID, nbf: now + 3600 }]);
    expect(await verifyCallerSignature(await signed(), trusting(early))).toMatchObject({
      status: 'invalid',
      reason: `key ${KEYID} is not valid yet (nbf)`,
    });
    const late = directoryOf([{ jwk: RFC8032_KEY, keyid: KEYID, exp: now - 3600 }]);
    expect(await verifyCallerSignature(await signed(), trusting(late))).toMatchObject({
      status: 'invalid',
      reason: `key ${KEYID} has expired (exp)`,
    });
  });

  it('refuses when the directory cannot be had, with its reason', async () => {
    const verdict = await verifyCallerSignature(
      await signed(),
      trusting({ ok: false, reason: 'cannot be fetched: refused' }),
    );
    expect(verdict).toMatchObject({
      status: 'invalid',
      reason: `key directory ${DIRECTORY}: cannot be fetched: refused`,
    });
  });

  it('refuses a Signature-Agent that is missing or not https', async () => {
    const request = await signed();
    const { 'signature-agent': _, ...rest } = request.headers;
    expect(await verifyCallerSignature({ ...request, headers: rest }, trusting(rfcDirectory()))).toMatchObject({
      status: 'invalid',
      reason: 'no Signature-Agent header names the key directory',
    });
    expect(
      await verifyCallerSignature(await signed({ agent: '"http://agent.test/"' }), trusting(rfcDirectory())),
    ).toMatchObject({
      status: 'invalid',
      reason: 'Signature-Agent http://agent.test/ is not an https URL',
    });
  });

  it('verifies exactly the signature whose window it checked: a fresh decoy before a captured one fails', async () => {
    // Issue 31 item 4: a captured signature 50 minutes old, and a fresh one with bad bytes under the same keyid.
    const old = await signed({ offsetS: -3000, lifetimeS: 7200 });
    const decoy = { ...(await signed()) };
    const inputOf = (r: SignedRequest, label: string) =>
      (r.headers['signature-input'] as string).replace(/^sig1=/, `${label}=`);
    const bytesOf = (r: SignedRequest) => (r.headers.signature as string).replace(/^sig1=/, '');
    const replay: SignedRequest = {
      ...old,
      headers: {
        ...old.headers,
        'signature-input': `${inputOf(decoy, 'fresh')}, ${inputOf(old, 'sig1')}`,
        signature: `fresh=:${Buffer.alloc(64, 7).toString('base64')}:, sig1=${bytesOf(old)}`,
      },
    };
    expect(await verifyCallerSignature(replay, trusting(rfcDirectory()))).toMatchObject({
      status: 'invalid',
      reason: stringMatching(/does not verify/),
    });
    // The old signature alone is refused by its window; and the fresh one, placed first, is the one verified.
    expect(await verifyCallerSignature(old, trusting(rfcDirectory()))).toMatchObject({ status: 'invalid' });
    const honest: SignedRequest = {
      ...decoy,
      headers: {
        ...decoy.headers,
        'signature-input': `${inputOf(decoy, 'sig1')}, ${inputOf(old, 'old')}`,
        signature: `${decoy.headers.signature as string}, old=${bytesOf(old)}`,
      },
    };
    expect(await verifyCallerSignature(honest, trusting(rfcDirectory()))).toMatchObject({ status: 'verified' });
  });

  it(`refuses more than ${MAX_SIGNATURES} signatures, and verifies one of the ones it accepts`, async () => {
    const request = await signed();
    const input = request.headers['signature-input'] as string;
    const signature = request.headers.signature as string;
    const labels = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);
    const many = (n: number): SignedRequest => ({
      ...request,
      headers: {
        ...request.headers,
        'signature-input': [input, ...labels(n - 1).map((l) => input.replace(/^sig1=/, `${l}=`))].join(', '),
        signature: [signature, ...labels(n - 1).map((l) => signature.replace(/^sig1=/, `${l}=`))].join(', '),
      },
    });
    expect(await verifyCallerSignature(many(MAX_SIGNATURES), trusting(rfcDirectory()))).toMatchObject({
      status: 'verified',
    });
    expect(await verifyCallerSignature(many(60), trusting(rfcDirectory()))).toEqual({
      status: 'invalid',
      agent: null,
      reason: `Signature-Input has 60 members; at most ${MAX_SIGNATURES}`,
    });
  });

  it('refuses what it can before asking for the directory: signature bytes, alg, keyid, window', async () => {
    let asked = 0;
    const counting = { directory: async () => (asked++, rfcDirectory()) };
    const request = await signed();
    const input = request.headers['signature-input'] as string;
    const cases: Record<string, Partial<Record<string, string>>> = {
      'no Signature header': { signature: undefined },
      'Signature has no byte sequence for sig1': { signature: 'other=:AAAA:' },
      'the signature is not 64 bytes': { signature: 'sig1=:AAAA:' },
      'alg "rsa-pss-sha512" is not ed25519': {
        'signature-input': input.replace('alg="ed25519"', 'alg="rsa-pss-sha512"'),
      },
      'the signature has no keyid': { 'signature-input': input.replace(/;keyid="[^"]*"/, '') },
      'the signature has expired': {
        'signature-input': input.replace(/expires=\d+/, 'expires=1000').replace(/created=\d+/, 'created=900'),
      },
    };
    for (const [reason, change] of Object.entries(cases)) {
      const headers = { ...request.headers, ...change };
      expect(await verifyCallerSignature({ ...request, headers }, counting), reason).toMatchObject({
        status: 'invalid',
        reason,
      });
    }
    expect(asked).toBe(0);
  });

  it("takes a directory only from its origin's well-known path on the default port", async () => {
    let asked = '';
    const lookup = { directory: async (url: URL) => ((asked = url.href), rfcDirectory()) };
    for (const [agent, reason] of [
      ['https://agent.test:8443/', 'names a port; key directories are served on 443'],
      ['https://agent.test/keys.json', `is not an origin or its ${DIRECTORY_PATH}`],
      [`https://agent.test${DIRECTORY_PATH}?v=2`, `is not an origin or its ${DIRECTORY_PATH}`],
      ['https://user@agent.test/', 'carries credentials'],
    ]) {
      const verdict = await verifyCallerSignature(await signed({ agent: `"${agent}"` }), lookup);
      expect(verdict, agent).toMatchObject({ status: 'invalid', reason: `Signature-Agent ${agent} ${reason}` });
    }
    expect(asked).toBe('');
    // "host." and "HOST" are the same origin as "host": one identity, one budget.
    const dotted = await verifyCallerSignature(await signed({ agent: '"https://AGENT.test./"' }), lookup);
    expect(asked).toBe(DIRECTORY);
    expect(dotted).toMatchObject({ status: 'verified', agent: 'https://agent.test' });
  });

  it('uses the thumbprint of the listed key as keyid (RFC 7638)', async () => {
    expect(await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: RFC8032_KEY.x }, 'sha256')).toBe(KEYID);
  });
});
