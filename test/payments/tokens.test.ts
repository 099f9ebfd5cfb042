import { test as propTest } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTokenShaped, newToken, TokenDeriver, tokenHash } from '../../src/payments/tokens.ts';

describe('payment tokens', () => {
  it('are 256 random bits in base64url behind a mode prefix', () => {
    const test = newToken('test');
    const live = newToken('live');
    expect(test).toMatch(/^dvs_test_[A-Za-z0-9_-]{43}$/);
    expect(live).toMatch(/^dvs_live_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(test.slice('dvs_test_'.length), 'base64url')).toHaveLength(32);
    expect(new Set(Array.from({ length: 1000 }, () => newToken('test'))).size).toBe(1000);
  });

  it('are stored as the hex SHA-256 of the whole token', () => {
    // sha256sum of the bytes "dvs_test_abc"
    expect(tokenHash('dvs_test_abc')).toBe('9e046f757d4792f40d1a3fd22b01214ea603d5518838477c55f7f82181492de8');
    expect(tokenHash('dvs_test_abc')).not.toBe(tokenHash('dvs_live_abc'));
  });

  it('refuses text that is not shaped like a token', () => {
    expect(isTokenShaped(newToken('live'))).toBe(true);
    for (const bad of [
      '',
      'dvs_test_',
      'dvs_prod_' + 'a'.repeat(43),
      'dvs_test_' + 'a'.repeat(42),
      'dvs_test_' + 'a'.repeat(44),
      'dvs_test_' + '+'.repeat(43),
      ' ' + newToken('test'),
    ]) {
      expect(isTokenShaped(bad)).toBe(false);
    }
  });

  propTest.prop([fc.string({ minLength: 1, maxLength: 80 }), fc.string({ minLength: 1, maxLength: 80 })])(
    'derived tokens are token-shaped, stable for a reference and key, and differ across references',
    (a, b) => {
      const deriver = new TokenDeriver('sk_test_secret', 'live');
      expect(isTokenShaped(deriver.tokenFor(a))).toBe(true);
      expect(deriver.tokenFor(a)).toBe(new TokenDeriver('sk_test_secret', 'live').tokenFor(a));
      expect(deriver.tokenFor(a)).not.toBe(new TokenDeriver('sk_test_other', 'live').tokenFor(a));
      if (a !== b) expect(deriver.tokenFor(a)).not.toBe(deriver.tokenFor(b));
    },
  );
});
