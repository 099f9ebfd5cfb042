import { describe, it, expect } from 'vitest';
import { inspectJwks } from '../../../plugins/agents/inspect-jwks.ts';

// RFC 8037 appendix A.2 public key; its RFC 7638 thumbprint is given in RFC 8037 appendix A.3.
const OKP = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };
const THUMBPRINT = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k';
const AT = '2026-06-01T00:00:00.000Z';
const sec = (iso: string) => Date.parse(iso) / 1000;

describe('inspectJwks', () => {
  it('recognises a thumbprint kid and a key valid at the observation time', async () => {
    const facts = await inspectJwks(
      {
        keys: [
          {
            ...OKP,
            kid: THUMBPRINT,
            alg: 'ed25519',
            nbf: sec('2026-01-01T00:00:00Z'),
            exp: sec('2027-01-01T00:00:00Z'),
          },
        ],
      },
      AT,
    );
    expect(facts).toEqual({
      keys: [
        {
          kid: THUMBPRINT,
          kty: 'OKP',
          alg: 'ed25519',
          use: null,
          private_members: [],
          nbf: '2026-01-01T00:00:00.000Z',
          exp: '2027-01-01T00:00:00.000Z',
          kid_is_thumbprint: true,
        },
      ],
      private_members: [],
      duplicate_kids: [],
      keys_valid_at_observation_count: 1,
      form_violations: [],
      encoding_violations: [],
    });
  });

  it('finds private members, duplicate kids, missing kty and expired keys', async () => {
    const facts = await inspectJwks(
      {
        keys: [
          { ...OKP, kid: 'a', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', exp: sec('2026-01-01T00:00:00Z') },
          { kty: 'oct', k: 'c2VjcmV0', kid: 'a' },
          { kid: 'b' },
        ],
      },
      AT,
    );
    expect(facts.private_members).toEqual(['d', 'k']);
    expect(facts.duplicate_kids).toEqual(['a']);
    expect(facts.keys.map((k) => k.kty)).toEqual(['OKP', 'oct', null]);
    expect(facts.keys.map((k) => k.kid_is_thumbprint)).toEqual([false, false, false]);
    expect(facts.keys_valid_at_observation_count).toBe(2);
  });

  it('lists no keys when there is no keys list', async () => {
    expect((await inspectJwks({ key: OKP }, AT)).keys).toEqual([]);
    expect((await inspectJwks(null, AT)).keys).toEqual([]);
  });
});
