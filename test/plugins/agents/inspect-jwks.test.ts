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
      keys_count: 1,
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
      keys_without_kty_count: 0,
      keys_without_kid_count: 0,
      duplicate_kids: [],
      kid_thumbprint_mismatch_count: 0,
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
    expect(facts.keys_without_kty_count).toBe(1);
    expect(facts.kid_thumbprint_mismatch_count).toBe(3);
    expect(facts.keys_valid_at_observation_count).toBe(2);
  });

  it('answers a null count when there is no keys list', async () => {
    expect((await inspectJwks({ key: OKP }, AT)).keys_count).toBeNull();
    expect((await inspectJwks(null, AT)).keys).toEqual([]);
  });
});
