// Certificates as the pages read them from the ledger: issue and expiry from the payload when it has them,
// `superseded` once a newer certificate exists for the domain, `expired` past `expires_at`, and the domain's
// current certificate only while it is valid.
import { describe, expect, it } from 'vitest';
import type { StoredCertificate } from '../../src/payments/gate.ts';
import { LedgerCertificates } from '../../src/service/certificate-view.ts';

const NOW = new Date('2026-06-01T00:00:00Z');

function stored(id: string, domain: string, extra: Record<string, unknown> = {}): StoredCertificate {
  const payload = {
    id,
    domain,
    verdict: 'CERTIFIED',
    score: 100,
    observed_at: '2026-05-01T00:00:00Z',
    anchor: { name: `_agent-validation.${domain}`, type: 'TXT', value: `v=dv1; id=${id}; sha256=00` },
    ...extra,
  };
  return { id, domain, body: JSON.stringify({ payload, jws: 'a..b' }) };
}

/** The ledger's two reads over a list kept in issue order. */
function ledgerOf(certificates: StoredCertificate[]) {
  return {
    certificate: (id: string) => Promise.resolve(certificates.find((c) => c.id === id) ?? null),
    latestCertificate: (domain: string) =>
      Promise.resolve(certificates.filter((c) => c.domain === domain).at(-1) ?? null),
  };
}

describe('LedgerCertificates', () => {
  it('reads a certificate: its body byte for byte, issued when observed, no expiry, valid, the anchor line', async () => {
    const one = stored('dvc_1', 'a.test');
    const view = await new LedgerCertificates(ledgerOf([one]), () => NOW).byId('dvc_1');
    expect(view).toMatchObject({
      id: 'dvc_1',
      domain: 'a.test',
      body: one.body,
      issuedAt: '2026-05-01T00:00:00Z',
      expiresAt: null,
      status: { state: 'valid' },
      anchorLine: '_agent-validation.a.test. IN TXT "v=dv1; id=dvc_1; sha256=00"',
    });
    expect(await new LedgerCertificates(ledgerOf([one])).byId('dvc_2')).toBeNull();
  });

  it('marks an older certificate superseded, and the newest is the current one', async () => {
    const reader = new LedgerCertificates(
      ledgerOf([stored('dvc_1', 'a.test'), stored('dvc_2', 'a.test'), stored('dvc_3', 'b.test')]),
      () => NOW,
    );
    expect((await reader.byId('dvc_1'))?.status).toEqual({
      state: 'superseded',
      reason: 'a newer certificate, dvc_2, was issued',
    });
    expect((await reader.byId('dvc_2'))?.status).toEqual({ state: 'valid' });
    expect((await reader.current('a.test'))?.id).toBe('dvc_2');
    expect(await reader.current('c.test')).toBeNull();
  });

  it('reads issued_at and expires_at when the payload has them; an expired certificate is nobody current', async () => {
    const validity = { issued_at: '2026-05-02T00:00:00Z', expires_at: '2026-05-31T00:00:00Z' };
    const reader = new LedgerCertificates(ledgerOf([stored('dvc_1', 'a.test', validity)]), () => NOW);
    expect(await reader.byId('dvc_1')).toMatchObject({
      issuedAt: '2026-05-02T00:00:00Z',
      expiresAt: '2026-05-31T00:00:00Z',
      status: { state: 'expired', at: '2026-05-31T00:00:00Z' },
    });
    expect(await reader.current('a.test')).toBeNull();
    const before = new LedgerCertificates(ledgerOf([stored('dvc_1', 'a.test', validity)]), () => new Date(2026, 4, 20));
    expect((await before.current('a.test'))?.status).toEqual({ state: 'valid' });
  });
});
