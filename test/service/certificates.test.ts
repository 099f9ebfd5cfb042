import { describe, expect, it } from 'vitest';
import type { CertificateRecord } from '../../src/payments/gate.ts';
import { statusOf } from '../../src/service/certificates.ts';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const record = (over: Partial<CertificateRecord> = {}): CertificateRecord => ({
  id: 'dvc_1',
  domain: 'good.test',
  body: '{}',
  issuedAt: T0,
  expiresAt: T0 + 90 * 86_400_000,
  revokedAt: null,
  revocationReason: null,
  supersededBy: null,
  ...over,
});

describe('statusOf', () => {
  it('is valid until it expires, at its expiry instant and after it expired', () => {
    expect(statusOf(record(), T0)).toEqual({
      id: 'dvc_1',
      domain: 'good.test',
      status: 'valid',
      issued_at: '2026-03-01T12:00:00Z',
      expires_at: '2026-05-30T12:00:00Z',
      checked_at: '2026-03-01T12:00:00Z',
    });
    expect(statusOf(record(), T0 + 90 * 86_400_000 - 1).status).toBe('valid');
    expect(statusOf(record(), T0 + 90 * 86_400_000).status).toBe('expired');
  });

  it('puts revoked before expired, and expired before superseded', () => {
    const revoked = record({ revokedAt: T0 + 1000, revocationReason: 'mis-issued', supersededBy: 'dvc_2' });
    expect(statusOf(revoked, T0 + 100 * 86_400_000)).toMatchObject({
      status: 'revoked',
      revoked_at: '2026-03-01T12:00:01Z',
      reason: 'mis-issued',
    });
    expect(statusOf(record({ supersededBy: 'dvc_2' }), T0 + 100 * 86_400_000).status).toBe('expired');
    expect(statusOf(record({ supersededBy: 'dvc_2' }), T0)).toMatchObject({
      status: 'superseded',
      superseded_by: 'dvc_2',
    });
  });

  it('says never for a certificate stored without an expiry', () => {
    expect(statusOf(record({ expiresAt: Number.POSITIVE_INFINITY }), T0 + 1e12)).toMatchObject({
      status: 'valid',
      expires_at: null,
    });
  });
});
