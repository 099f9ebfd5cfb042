// JWK Set members (RFC 7517 sections 4-5, RFC 7518 section 6, RFC 8037 section 2): the RFCs' example public keys
// are well formed, generated public keys are well formed, and removing one member a key type requires, or
// breaking one base64url value, is reported with the member's production and pointer.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { inspectJwks } from '../../../plugins/agents/inspect-jwks.ts';
import { trimEndOf } from '../../../src/lib/trim.ts';

const AT = '2026-06-01T00:00:00.000Z';

// RFC 7517 appendix A.1, verbatim: an EC P-256 and an RSA public key.
const RFC7517_A1 = {
  keys: [
    {
      kty: 'EC',
      crv: 'P-256',
      x: 'MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4',
      y: '4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM',
      use: 'enc',
      kid: '1',
    },
    {
      kty: 'RSA',
      n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
      e: 'AQAB',
      alg: 'RS256',
      kid: '2011-04-29',
    },
  ],
};

// RFC 8037 appendix A.2, verbatim.
const RFC8037_A2 = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };

describe('the RFC examples', () => {
  it('RFC 7517 appendix A.1 and RFC 8037 appendix A.2 are well formed', async () => {
    expect((await inspectJwks(RFC7517_A1, AT)).form_violations).toEqual([]);
    expect((await inspectJwks(RFC7517_A1, AT)).encoding_violations).toEqual([]);
    expect((await inspectJwks({ keys: [RFC8037_A2] }, AT)).form_violations).toEqual([]);
  });

  it('a set without keys is refused', async () => {
    expect((await inspectJwks({ keys: 'none' }, AT)).keys).toEqual([]);
    expect((await inspectJwks({ keys: [{ kid: 'x' }] }, AT)).form_violations).toEqual([
      'JWK /keys/0: missing required member "kty"',
    ]);
  });
});

const b64url = fc
  .base64String({ minLength: 4, maxLength: 44 })
  .map((s) => trimEndOf(s, '=').replace(/\+/g, '-').replace(/\//g, '_'))
  .filter((s) => s.length > 0);
const required: Record<string, string[]> = { EC: ['crv', 'x', 'y'], RSA: ['n', 'e'], OKP: ['crv', 'x'], oct: ['k'] };
const key = fc.oneof(
  fc.record({ kty: fc.constant('EC'), crv: fc.constantFrom('P-256', 'P-384', 'P-521'), x: b64url, y: b64url }),
  fc.record({ kty: fc.constant('RSA'), n: b64url, e: fc.constant('AQAB') }),
  fc.record({ kty: fc.constant('OKP'), crv: fc.constantFrom('Ed25519', 'X25519'), x: b64url }),
  fc.record({ kty: fc.constant('oct'), k: b64url }),
);

describe('generated keys', () => {
  test.prop([fc.array(key, { minLength: 1, maxLength: 4 })])('every well-formed set is well formed', async (keys) => {
    expect((await inspectJwks({ keys }, AT)).form_violations).toEqual([]);
  });

  test.prop([key, fc.nat()])('removing a member the key type requires names it', async (k, n) => {
    const members = required[k.kty]!;
    const member = members[n % members.length]!;
    const broken: Record<string, unknown> = { ...k };
    delete broken[member];
    expect((await inspectJwks({ keys: [broken] }, AT)).form_violations).toEqual([
      `JWK /keys/0: missing required member "${member}"`,
    ]);
  });

  test.prop([key])('a padded or standard-base64 value breaks base64url', async (k) => {
    const member = required[k.kty]!.find((m) => m !== 'crv')!;
    const broken = { ...k, [member]: `${String((k as Record<string, unknown>)[member])}+/=` };
    const facts = await inspectJwks({ keys: [broken] }, AT);
    expect(facts.encoding_violations).toEqual([`JWK /keys/0/${member}: must match pattern "^[A-Za-z0-9_-]+$"`]);
    expect(facts.form_violations).toEqual([]);
  });
});
