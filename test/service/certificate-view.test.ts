// Certificates as the pages read them, through the ledger's lifecycle: issue and expiry from the payload,
// `superseded` once a newer certificate exists for the domain, `expired` past `expires_at`, `revoked` with its
// reason, and the domain's current certificate only while it is valid.
import { describe, expect, it } from 'vitest';
import type { StoredCertificate } from '../../src/payments/gate.ts';
import { LedgerCertificates } from '../../src/service/certificate-view.ts';
import { Certificates } from '../../src/service/certificates.ts';
import { MemoryGate } from '../server/memory-gate.ts';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const VALIDITY = { issued_at: '2026-05-02T00:00:00Z', expires_at: '2026-07-31T00:00:00Z' };

function stored(id: string, domain: string, validity = VALIDITY): StoredCertificate {
  const payload = {
    id,
    domain,
    verdict: 'CERTIFIED',
    score: 100,
    observed_at: '2026-05-01T00:00:00Z',
    anchor: { name: `_agent-validation.${domain}`, type: 'TXT', value: `v=dv1; id=${id}; sha256=00` },
    ...validity,
  };
  return { id, domain, body: JSON.stringify({ payload, jws: 'a..b' }) };
}

/** A ledger holding the certificates in issue order, and the pages' reader over it at `now`. */
async function readerOf(certificates: StoredCertificate[], now = NOW) {
  const gate = new MemoryGate();
  for (const certificate of certificates) {
    const token = gate.issue();
    const r = await gate.reserve(token, certificate.domain);
    if (r.kind !== 'reserved') throw new Error('expected a reservation');
    await gate.commit(token, r.reservationId, certificate);
  }
  return { gate, reader: new LedgerCertificates(new Certificates(gate, () => now)) };
}

describe('LedgerCertificates', () => {
  it('reads a certificate: its body byte for byte, its dates, valid, the anchor line', async () => {
    const one = stored('dvc_1', 'a.test');
    const { reader } = await readerOf([one]);
    expect(await reader.byId('dvc_1')).toMatchObject({
      id: 'dvc_1',
      domain: 'a.test',
      body: one.body,
      issuedAt: '2026-05-02T00:00:00Z',
      expiresAt: '2026-07-31T00:00:00Z',
      status: { state: 'valid' },
      anchorLine: '_agent-validation.a.test. IN TXT "v=dv1; id=dvc_1; sha256=00"',
    });
    expect(await reader.byId('dvc_2')).toBeNull();
  });

  it('marks an older certificate superseded, and the newest is the current one', async () => {
    const { reader } = await readerOf([
      stored('dvc_1', 'a.test'),
      stored('dvc_2', 'a.test'),
      stored('dvc_3', 'b.test'),
    ]);
    expect((await reader.byId('dvc_1'))?.status).toEqual({
      state: 'superseded',
      reason: 'a newer certificate, dvc_2, was issued',
    });
    expect((await reader.byId('dvc_2'))?.status).toEqual({ state: 'valid' });
    expect((await reader.current('a.test'))?.id).toBe('dvc_2');
    expect(await reader.current('c.test')).toBeNull();
  });

  it('shows a revoked certificate with its reason, and the one before it becomes current again', async () => {
    const { gate, reader } = await readerOf([stored('dvc_1', 'a.test'), stored('dvc_2', 'a.test')]);
    await gate.revoke('dvc_2', 'key compromise', NOW - 1000);
    expect((await reader.byId('dvc_2'))?.status).toEqual({
      state: 'revoked',
      reason: 'key compromise',
      at: '2026-05-31T23:59:59Z',
    });
    expect((await reader.current('a.test'))?.id).toBe('dvc_1');
  });

  it('an expired certificate is nobody current', async () => {
    const validity = { issued_at: '2026-05-02T00:00:00Z', expires_at: '2026-05-31T00:00:00Z' };
    const { reader } = await readerOf([stored('dvc_1', 'a.test', validity)]);
    expect(await reader.byId('dvc_1')).toMatchObject({
      expiresAt: '2026-05-31T00:00:00Z',
      status: { state: 'expired', at: '2026-05-31T00:00:00Z' },
    });
    expect(await reader.current('a.test')).toBeNull();
    const before = await readerOf([stored('dvc_1', 'a.test', validity)], Date.parse('2026-05-20T00:00:00Z'));
    expect((await before.reader.current('a.test'))?.status).toEqual({ state: 'valid' });
  });
});
