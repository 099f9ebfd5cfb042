// The A2A card signature verifier (A2A specification section 8.4): the specification's signed samples and a
// documented signed registry entry verbatim (fixtures/a2a-signed/SOURCES.md), cards of any content signed here
// with each algorithm family, and signed cards with one thing broken, each refused with its reason.
import { readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import canonicalize from 'canonicalize';
import { FlattenedSign, exportJWK, generateKeyPair, type JWK, type JWSHeaderParameters } from 'jose';
import {
  KeySets,
  MAX_KEY_SETS,
  verifyCardSignatures,
  type CardSignature,
} from '../../../plugins/agents/verify-card-signatures.ts';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const JKU = 'https://example.com/.well-known/jwks.json';

/** Key sets served from a map; every URL asked for is recorded. */
function served(sets: Record<string, unknown>) {
  const asked: string[] = [];
  const keySets = new KeySets(async (url) => {
    asked.push(url);
    return sets[url] ?? null;
  });
  return { keySets, asked };
}

interface Signer {
  alg: string;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
}

async function signer(alg: string, kid: string): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair(alg, alg === 'RS256' ? { modulusLength: 2048 } : {});
  return { alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

/** The card with one signature made as section 8.4.2 describes, the payload made by the `canonicalize` package. */
async function sign(card: Record<string, unknown>, s: Signer, header: JWSHeaderParameters = {}) {
  const jws = await new FlattenedSign(new TextEncoder().encode(canonicalize(card)))
    .setProtectedHeader({ alg: s.alg, typ: 'JOSE', kid: s.jwk.kid, jku: JKU, ...header })
    .sign(s.privateKey);
  return { ...card, signatures: [{ protected: jws.protected, signature: jws.signature }] };
}

const verified = (alg: string, kid: string, jku = JKU): CardSignature => ({
  alg,
  kid,
  jku,
  verified: true,
  reason: null,
});

let ed: Signer;
let es: Signer;
let rs: Signer;
beforeAll(async () => {
  [ed, es, rs] = await Promise.all([signer('EdDSA', 'ed-1'), signer('ES256', 'es-1'), signer('RS256', 'rs-1')]);
});

const CARD = {
  name: 'Route Planner',
  description: 'Plans routes.',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'https://example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  skills: [{ id: 'route', name: 'Route', description: 'Routes.', tags: ['maps'] }],
};

describe('signed documents found in the wild, verbatim', () => {
  it.each(['v1.0.0', 'v0.3.0'])('the specification sample card %s: the header of section 8.4.2', async (tag) => {
    const { keySets, asked } = served({});
    const card = fixture(`a2a-spec/sample-${tag}.json`);
    const header = { alg: 'ES256', kid: 'key-1', jku: 'https://example.com/agent/jwks.json' };
    // Scanned at its own domain: the key set is fetched, and example.com publishes none.
    expect(await verifyCardSignatures(card, 'example.com', keySets)).toEqual([
      { ...header, verified: false, reason: 'key_set_unavailable' },
    ]);
    expect(asked).toEqual(['https://example.com/agent/jwks.json']);
    // Served by the agent's own host, georoute-agent.example.com: example.com's keys are not its own.
    const elsewhere = served({});
    expect(await verifyCardSignatures(card, 'georoute-agent.example.com', elsewhere.keySets)).toEqual([
      { ...header, verified: false, reason: 'jku_not_on_site' },
    ]);
    expect(elsewhere.asked).toEqual([]);
  });

  it('the Microsoft Graph agent registry example: a DID kid and no jku, so no key to fetch', async () => {
    const { keySets, asked } = served({});
    const card = fixture('a2a-signed/graph-agentinstance-example2.json');
    expect(await verifyCardSignatures(card, 'conditional-access-agent.example.com', keySets)).toEqual([
      { alg: 'ES256', kid: 'did:web:contoso.example#key-1', jku: null, verified: false, reason: 'no_jku' },
    ]);
    expect(asked).toEqual([]);
  });

  it('a card without signatures has none to verify', async () => {
    const { keySets } = served({});
    expect(await verifyCardSignatures(fixture('a2a-spec/sample-v0.1.0.json'), 'example.com', keySets)).toBeNull();
    expect(await verifyCardSignatures('not a card', 'example.com', keySets)).toBeNull();
  });
});

describe('cards signed here', () => {
  it.each(['ed', 'es', 'rs'] as const)('a card signed with the %s key of the site key set verifies', async (which) => {
    const s = { ed, es, rs }[which];
    const { keySets } = served({ [JKU]: { keys: [ed.jwk, es.jwk, rs.jwk] } });
    expect(await verifyCardSignatures(await sign(CARD, s), 'example.com', keySets)).toEqual([
      verified(s.alg, s.jwk.kid!),
    ]);
  });

  const json = fc.jsonValue({ maxDepth: 3 });
  const cards = fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 6 }).map((extra) => {
    const card: Record<string, unknown> = { ...CARD, ...extra };
    delete card.signatures;
    return card;
  });

  test.prop([cards, fc.boolean()], { numRuns: 40 })(
    'any card verifies as signed, however its members are ordered and spaced when served',
    async (card, reversed) => {
      const { keySets } = served({ [JKU]: { keys: [ed.jwk] } });
      const signed = await sign(card, ed);
      // What a client receives: the same members in another order, with whitespace (JSON.parse reads it back).
      const entries = Object.entries(signed);
      const text = JSON.stringify(Object.fromEntries(reversed ? entries.reverse() : entries), null, 3);
      expect(await verifyCardSignatures(JSON.parse(text), 'example.com', keySets)).toEqual([verified('EdDSA', 'ed-1')]);
    },
  );

  it('a key set on a subdomain verifies; one key of two signatures is enough to be listed verified', async () => {
    const jku = 'https://keys.example.com/jwks.json';
    const { keySets } = served({ [jku]: { keys: [es.jwk] } });
    const signed = await sign(CARD, es, { jku });
    const first = (await sign(CARD, ed)).signatures[0]!;
    const card = { ...signed, signatures: [first, ...signed.signatures] };
    expect(await verifyCardSignatures(card, 'example.com', keySets)).toEqual([
      { alg: 'EdDSA', kid: 'ed-1', jku: JKU, verified: false, reason: 'key_set_unavailable' },
      verified('ES256', 'es-1', jku),
    ]);
  });

  it('a key set that leaks the private part still verifies with the public one', async () => {
    const { privateKey } = await generateKeyPair('EdDSA', { extractable: true });
    const leaked = { ...(await exportJWK(privateKey)), kid: 'leaky', alg: 'EdDSA' };
    const s = { alg: 'EdDSA', privateKey, jwk: leaked };
    const { keySets } = served({ [JKU]: { keys: [leaked] } });
    expect(await verifyCardSignatures(await sign(CARD, s), 'example.com', keySets)).toEqual([
      verified('EdDSA', 'leaky'),
    ]);
  });

  it('a header without kid is verified with each key of the set that fits its alg', async () => {
    const other = await signer('EdDSA', 'ed-2');
    const { keySets } = served({
      [JKU]: {
        keys: [
          { ...other.jwk, kid: undefined },
          { ...ed.jwk, kid: undefined },
        ],
      },
    });
    const signed = await sign(CARD, ed, { kid: undefined });
    expect(await verifyCardSignatures(signed, 'example.com', keySets)).toEqual([
      { alg: 'EdDSA', kid: null, jku: JKU, verified: true, reason: null },
    ]);
  });
});

describe('one thing broken, refused with its reason', () => {
  const keySet = () => ({ [JKU]: { keys: [ed.jwk, es.jwk] } });

  async function reasonFor(card: unknown, sets: Record<string, unknown> = keySet(), domain = 'example.com') {
    const out = await verifyCardSignatures(card, domain, served(sets).keySets);
    return out?.map((s) => s.reason);
  }

  const changed = fc
    .tuple(fc.constantFrom(...Object.keys(CARD)), fc.string({ maxLength: 5 }))
    .filter(([member, value]) => (CARD as Record<string, unknown>)[member] !== value);
  test.prop([changed], { numRuns: 20 })(
    'a member changed after signing: signature_invalid',
    async ([member, value]) => {
      const signed = await sign(CARD, ed);
      expect(await reasonFor({ ...signed, [member]: value })).toEqual(['signature_invalid']);
    },
  );

  it('a member added after signing: signature_invalid', async () => {
    expect(await reasonFor({ ...(await sign(CARD, ed)), iconUrl: 'https://example.com/i.png' })).toEqual([
      'signature_invalid',
    ]);
  });

  it('signed with another key under a kid of the set: signature_invalid', async () => {
    const impostor = { ...(await signer('EdDSA', 'x')), jwk: ed.jwk };
    expect(await reasonFor(await sign(CARD, impostor))).toEqual(['signature_invalid']);
  });

  it('a kid the set does not hold: key_not_found', async () => {
    expect(await reasonFor(await sign(CARD, ed, { kid: 'rotated-away' }))).toEqual(['key_not_found']);
  });

  it('the key set is missing or is not a JWK set: key_set_unavailable', async () => {
    const signed = await sign(CARD, ed);
    expect(await reasonFor(signed, {})).toEqual(['key_set_unavailable']);
    expect(await reasonFor(signed, { [JKU]: { keys: 'none' } })).toEqual(['key_set_unavailable']);
  });

  it.each([
    ['http://example.com/.well-known/jwks.json', 'not https'],
    ['https://example.net/.well-known/jwks.json', 'another site'],
    ['https://notexample.com/jwks.json', 'a name that only ends like the site'],
    ['/.well-known/jwks.json', 'a relative reference'],
  ])('jku %s (%s): jku_not_on_site, and nothing is fetched', async (jku) => {
    const { keySets, asked } = served(keySet());
    const out = await verifyCardSignatures(await sign(CARD, ed, { jku }), 'example.com', keySets);
    expect(out?.map((s) => s.reason)).toEqual(['jku_not_on_site']);
    expect(asked).toEqual([]);
  });

  it('no jku: no_jku', async () => {
    expect(await reasonFor(await sign(CARD, ed, { jku: undefined }))).toEqual(['no_jku']);
  });

  it(`a key set beyond the first ${MAX_KEY_SETS}: jku_over_limit, and it is not fetched`, async () => {
    const urls = ['a', 'b', 'c'].map((h) => `https://${h}.example.com/jwks.json`);
    const signatures = await Promise.all(urls.map(async (jku) => (await sign(CARD, ed, { jku })).signatures[0]!));
    const { keySets, asked } = served(Object.fromEntries(urls.map((u) => [u, { keys: [ed.jwk] }])));
    const out = await verifyCardSignatures({ ...CARD, signatures }, 'example.com', keySets);
    expect(out?.map((s) => s.reason)).toEqual([null, null, 'jku_over_limit']);
    expect(asked).toEqual(urls.slice(0, 2));
  });

  it.each([
    [{ alg: 'HS256' }, 'a MAC'],
    [{ alg: 'none' }, 'no signature'],
  ])('alg %j (%s): alg_not_allowed', async (header) => {
    const signed = await sign(CARD, ed);
    const forged = Buffer.from(JSON.stringify({ ...header, kid: 'ed-1', jku: JKU })).toString('base64url');
    const card = { ...signed, signatures: [{ ...signed.signatures[0]!, protected: forged }] };
    expect(await reasonFor(card)).toEqual(['alg_not_allowed']);
  });

  it('a critical header parameter the verifier does not know: jws_invalid', async () => {
    // The signer knows the extension "exp" it marks critical; the verifier, as RFC 7515 section 4.1.11 asks, refuses it.
    const jws = await new FlattenedSign(new TextEncoder().encode(canonicalize(CARD)))
      .setProtectedHeader({ alg: 'EdDSA', kid: 'ed-1', jku: JKU, crit: ['exp'], exp: 1 })
      .sign(ed.privateKey, { crit: { exp: true } });
    const card = { ...CARD, signatures: [{ protected: jws.protected, signature: jws.signature }] };
    expect(await reasonFor(card)).toEqual(['jws_invalid']);
  });

  it.each([
    ['not base64url', '***'],
    ['base64url of a JSON array', Buffer.from('[1]').toString('base64url')],
    ['base64url of text that is not JSON', Buffer.from('{"alg":').toString('base64url')],
  ])('a protected header that is %s: header_unreadable', async (_, protectedHeader) => {
    const signed = await sign(CARD, ed);
    const card = { ...signed, signatures: [{ ...signed.signatures[0]!, protected: protectedHeader }] };
    expect(await reasonFor(card)).toEqual(['header_unreadable']);
  });

  it.each([[null], ['a string'], [{ protected: 'x' }], [{ signature: 'x' }]])(
    'an entry %j: malformed',
    async (entry) => {
      expect(await reasonFor({ ...CARD, signatures: [entry] })).toEqual(['malformed']);
    },
  );

  it('a card with a lone surrogate has no RFC 8785 form: card_not_canonical', async () => {
    const signed = await sign(CARD, ed);
    expect(await reasonFor({ ...signed, name: '\ud800' })).toEqual(['card_not_canonical']);
  });
});
