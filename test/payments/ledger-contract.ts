// The ledger's contract, one suite for every backend: what reserve, commit and release promise, whatever
// stores the rows. Each backend's test file runs it with its own way to open a fresh ledger.
import { beforeEach, afterEach, describe, expect, it } from 'vitest';
import type { StoredCertificate } from '../../src/payments/gate.ts';
import { Ledger, ReservationLostError } from '../../src/payments/ledger.ts';
import type { LedgerStore } from '../../src/payments/store.ts';
import { tokenHash } from '../../src/payments/tokens.ts';

export interface Backend {
  /** A store over a fresh, empty database. */
  open(): Promise<LedgerStore>;
  /** Everything the database holds, as text (to show no token is stored in the clear). */
  dump(): Promise<string>;
  cleanup(): Promise<void>;
}

const LEASE_SECONDS = 60;
const TTL_SECONDS = 3600;

const certificateFor = (domain: string, n = 1): StoredCertificate => ({
  id: `cert-${domain}-${n}`,
  domain,
  body: JSON.stringify({
    payload: { id: `cert-${domain}-${n}`, domain, verdict: 'CERTIFIED', score: 100 },
    jws: `sig-${n}`,
  }),
});

export interface ContractOptions {
  /**
   * How expired evidence leaves: by rows, at most the limit per call and the earliest expiry first; or by weeks
   * (SQLite's evidence files), every certificate of a week of expiry at once after the week ends.
   */
  evidencePruning: 'rows' | 'weeks';
}

export function ledgerContract(name: string, opts: ContractOptions, makeBackend: () => Promise<Backend>): void {
  describe(`ledger contract: ${name}`, () => {
    let backend: Backend;
    let ledger: Ledger;
    let clock: number;

    const open = async () =>
      new Ledger(await backend.open(), {
        mode: 'test',
        tokenTtlSeconds: TTL_SECONDS,
        reservationLeaseSeconds: LEASE_SECONDS,
        now: () => clock,
      });

    beforeEach(async () => {
      clock = Date.parse('2026-03-01T12:00:00Z');
      backend = await makeBackend();
      ledger = await open();
    });

    afterEach(async () => {
      await ledger.close();
      await backend.cleanup();
    });

    const oneToken = async () => (await ledger.issue({ source: 'test' }))[0]!.token;

    it('issues distinct prefixed tokens that start out issued, with the configured or the asked expiry', async () => {
      const issued = await ledger.issue({ count: 5, source: 'test' });
      expect(new Set(issued.map((t) => t.token)).size).toBe(5);
      for (const t of issued) {
        expect(t.token).toMatch(/^dvs_test_[A-Za-z0-9_-]{43}$/);
        expect(t.expiresAt.getTime()).toBe(clock + TTL_SECONDS * 1000);
      }
      const status = await ledger.status(issued[0]!.token);
      expect(status).toMatchObject({
        state: 'issued',
        expired: false,
        domain: null,
        certificateId: null,
        reservedUntil: null,
        source: 'test',
      });
      const [short] = await ledger.issue({ ttlSeconds: 60, source: 'cli' });
      expect((await ledger.status(short!.token))!.expiresAt.getTime()).toBe(clock + 60_000);
    });

    it('stores only the SHA-256 of a token', async () => {
      const token = await oneToken();
      const dump = await backend.dump();
      expect(dump).toContain(tokenHash(token));
      expect(dump).not.toContain(token);
      expect(dump).not.toContain(token.slice('dvs_test_'.length));
    });

    it('reserves an issued token once: the same domain then waits, another domain is refused', async () => {
      const token = await oneToken();
      const first = await ledger.reserve(token, 'a.test');
      expect(first.kind).toBe('reserved');
      expect(await ledger.reserve(token, 'a.test')).toEqual({ kind: 'in_progress' });
      expect(await ledger.reserve(token, 'b.test')).toMatchObject({ kind: 'refused', reason: 'other_domain' });
      expect(await ledger.status(token)).toMatchObject({
        state: 'reserved',
        domain: 'a.test',
        reservedUntil: new Date(clock + LEASE_SECONDS * 1000),
      });
    });

    it('commits with the certificate: the same domain gets the stored certificate again, another domain is refused', async () => {
      const token = await oneToken();
      const r = await ledger.reserve(token, 'a.test');
      if (r.kind !== 'reserved') throw new Error(`expected a reservation, got ${r.kind}`);
      const cert = certificateFor('a.test');
      await ledger.commit(token, r.reservationId, cert);
      expect(await ledger.reserve(token, 'a.test')).toEqual({ kind: 'redeemed', certificate: cert });
      const other = await ledger.reserve(token, 'b.test');
      expect(other).toMatchObject({ kind: 'refused', reason: 'other_domain' });
      expect(other.kind === 'refused' && other.message).toContain('a.test');
      expect(await ledger.status(token)).toMatchObject({
        state: 'redeemed',
        domain: 'a.test',
        certificateId: cert.id,
        reservedUntil: null,
      });
      expect(await ledger.certificate(cert.id)).toEqual(cert);
      // Long after expiry the buyer still gets what they paid for.
      clock += 10 * TTL_SECONDS * 1000;
      expect(await ledger.reserve(token, 'a.test')).toEqual({ kind: 'redeemed', certificate: cert });
    });

    it('keeps the report beside its certificate, and returns both when the token comes again', async () => {
      const token = await oneToken();
      const r = await ledger.reserve(token, 'a.test');
      if (r.kind !== 'reserved') throw new Error('expected a reservation');
      const cert = { ...certificateFor('a.test'), report: Buffer.from([0x1f, 0x8b, 0, 1, 2, 0xff]) };
      await ledger.commit(token, r.reservationId, cert);
      expect(await ledger.certificate(cert.id)).toEqual(cert);
      expect(await ledger.reserve(token, 'a.test')).toEqual({ kind: 'redeemed', certificate: cert });
    });

    it('keeps a certificate body byte for byte', async () => {
      const token = await oneToken();
      const r = await ledger.reserve(token, 'a.test');
      if (r.kind !== 'reserved') throw new Error('expected a reservation');
      const body = '{"jws":"x","payload":{"domain":"a.test","note":"ünïcode ✓ \\u2028","score":99.5}}';
      await ledger.commit(token, r.reservationId, { id: 'c-bytes', domain: 'a.test', body });
      expect((await ledger.certificate('c-bytes'))!.body).toBe(body);
    });

    it('release frees the token for another try, for any domain', async () => {
      const token = await oneToken();
      const r = await ledger.reserve(token, 'a.test');
      if (r.kind !== 'reserved') throw new Error('expected a reservation');
      await ledger.release(token, r.reservationId);
      expect(await ledger.status(token)).toMatchObject({ state: 'issued', domain: null });
      expect((await ledger.reserve(token, 'b.test')).kind).toBe('reserved');
    });

    it('refuses unknown, malformed and expired tokens with a reason', async () => {
      expect(await ledger.reserve('dvs_test_' + 'A'.repeat(43), 'a.test')).toMatchObject({
        kind: 'refused',
        reason: 'unknown',
      });
      expect(await ledger.reserve('not a token', 'a.test')).toMatchObject({ kind: 'refused', reason: 'unknown' });
      expect(await ledger.status('not a token')).toBeNull();
      const token = await oneToken();
      clock += TTL_SECONDS * 1000;
      const expired = await ledger.reserve(token, 'a.test');
      expect(expired).toMatchObject({ kind: 'refused', reason: 'expired' });
      expect(await ledger.status(token)).toMatchObject({ state: 'issued', expired: true });
    });

    it('a reservation that is never committed nor released lapses after its lease', async () => {
      const token = await oneToken();
      const crashed = await ledger.reserve(token, 'a.test');
      if (crashed.kind !== 'reserved') throw new Error('expected a reservation');
      clock += LEASE_SECONDS * 1000 - 1;
      expect(await ledger.reserve(token, 'a.test')).toEqual({ kind: 'in_progress' });
      clock += 2;
      expect(await ledger.status(token)).toMatchObject({ state: 'issued' });
      const retry = await ledger.reserve(token, 'b.test');
      expect(retry.kind).toBe('reserved');
      // The crashed holder comes back: it can neither commit nor free what is no longer its own.
      await expect(ledger.commit(token, crashed.reservationId, certificateFor('a.test'))).rejects.toBeInstanceOf(
        ReservationLostError,
      );
      await ledger.release(token, crashed.reservationId);
      expect(await ledger.status(token)).toMatchObject({ state: 'reserved', domain: 'b.test' });
      expect(await ledger.certificate(certificateFor('a.test').id)).toBeNull();
    });

    it('of 50 concurrent reserves of one token exactly one gets it', async () => {
      const token = await oneToken();
      const results = await Promise.all(Array.from({ length: 50 }, () => ledger.reserve(token, 'a.test')));
      expect(results.filter((r) => r.kind === 'reserved')).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'in_progress')).toHaveLength(49);
    });

    it('of 50 concurrent reserves from two ledgers on one database exactly one gets it', async () => {
      const second = await open();
      try {
        const token = await oneToken();
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 ? second : ledger).reserve(token, 'a.test')),
        );
        expect(results.filter((r) => r.kind === 'reserved')).toHaveLength(1);
      } finally {
        await second.close();
      }
    });

    it('records a token made elsewhere once, however often it is told', async () => {
      const token = 'dvs_live_' + 'b'.repeat(43);
      expect(await ledger.record(token, 'stripe:cs_1')).toBe(true);
      expect(await ledger.record(token, 'stripe:cs_1')).toBe(false);
      expect(await ledger.status(token)).toMatchObject({ state: 'issued', source: 'stripe:cs_1' });
    });

    /** Pays for and commits one certificate of the domain at the current clock. */
    const certify = async (domain: string, n: number, extra: Partial<StoredCertificate> = {}) => {
      const token = await oneToken();
      const r = await ledger.reserve(token, domain);
      if (r.kind !== 'reserved') throw new Error(`not reserved: ${r.kind}`);
      const certificate = { ...certificateFor(domain, n), expiresAt: clock + 90 * 86_400_000, ...extra };
      await ledger.commit(token, r.reservationId, certificate);
      return certificate.id;
    };

    it('keeps each certificate with its dates, the newest of a domain superseding the older (issue 10 item 3)', async () => {
      const first = await certify('a.test', 1);
      clock += 60_000;
      const second = await certify('a.test', 2);
      await certify('b.test', 1);
      expect(await ledger.certificateRecord(first)).toMatchObject({
        id: first,
        domain: 'a.test',
        issuedAt: clock - 60_000,
        expiresAt: clock - 60_000 + 90 * 86_400_000,
        revokedAt: null,
        revocationReason: null,
        supersededBy: second,
      });
      expect((await ledger.certificateRecord(second))!.supersededBy).toBeNull();
      expect((await ledger.latest('a.test'))!.id).toBe(second);
      expect(await ledger.latest('c.test')).toBeNull();
      expect(await ledger.certificateRecord('cert-none')).toBeNull();
    });

    it('revokes once, with the first reason and time; a revoked newer certificate supersedes nothing', async () => {
      const first = await certify('a.test', 1);
      clock += 60_000;
      const second = await certify('a.test', 2);
      expect(await ledger.revoke(second, 'key compromise', clock)).toBe(true);
      expect(await ledger.revoke(second, 'again', clock + 5)).toBe(true);
      expect(await ledger.revoke('cert-none', 'x', clock)).toBe(false);
      expect(await ledger.certificateRecord(second)).toMatchObject({
        revokedAt: clock,
        revocationReason: 'key compromise',
      });
      expect((await ledger.certificateRecord(first))!.supersededBy).toBeNull();
      expect((await ledger.latest('a.test'))!.id).toBe(first);
    });

    it('keeps evidence while its certificate is valid, and prunes it after expiry, never in a commit (issues 10, 38)', async () => {
      const evidence = Buffer.from([0x1f, 0x8b, 0, 1, 2, 255]);
      const short = await certify('a.test', 1, { expiresAt: clock + 60_000, evidence });
      const shorter = await certify('b.test', 1, { expiresAt: clock + 30_000, evidence });
      const long = await certify('c.test', 1, { evidence });
      expect(await ledger.evidence(short, clock)).toEqual(evidence);
      expect(await ledger.evidence(short, clock + 60_000)).toBeNull();
      expect(await ledger.pruneExpiredEvidence(10)).toBe(0);
      clock += 120_000;
      // A commit no longer prunes: the space is freed by the pruning.
      await certify('d.test', 1);
      expect(await ledger.evidence(short, 0)).toEqual(evidence);
      // Past the end of their expiry's week, which SQLite frees whole (src/payments/sqlite-evidence.ts).
      clock += 7 * 86_400_000;
      let pruned = 0;
      for (let batch = await ledger.pruneExpiredEvidence(1); batch > 0; batch = await ledger.pruneExpiredEvidence(1))
        pruned += batch;
      expect(pruned).toBe(2);
      expect(await ledger.evidence(shorter, 0)).toBeNull();
      expect(await ledger.evidence(short, 0)).toBeNull();
      expect(await ledger.evidence(long, clock)).toEqual(evidence);
      expect((await ledger.certificate(short))!.body).toBe(certificateFor('a.test', 1).body);
    });

    // A backend that frees a week's evidence whole has no batches to hold to a limit.
    if (opts.evidencePruning === 'rows')
      it('prunes expired evidence in batches of the limit, the earliest expiry first (issue 38)', async () => {
        const evidence = Buffer.from([7]);
        const short = await certify('a.test', 1, { expiresAt: clock + 60_000, evidence });
        const shorter = await certify('b.test', 1, { expiresAt: clock + 30_000, evidence });
        clock += 120_000;
        expect(await ledger.pruneExpiredEvidence(1)).toBe(1);
        expect(await ledger.evidence(shorter, 0)).toBeNull();
        expect(await ledger.evidence(short, 0)).toEqual(evidence);
        expect(await ledger.pruneExpiredEvidence(10)).toBe(1);
        expect(await ledger.evidence(short, 0)).toBeNull();
        expect(await ledger.pruneExpiredEvidence(10)).toBe(0);
      });

    it('drops reports older than the retention, oldest first, in bounded batches; the certificate stays (issue 38)', async () => {
      const report = Buffer.from([0x1f, 0x8b, 9]);
      const first = await certify('a.test', 1, { report });
      clock += 60_000;
      const second = await certify('b.test', 1, { report });
      clock += 60_000;
      const third = await certify('c.test', 1, { report });
      expect(await ledger.pruneOldReports(30, 10)).toBe(2);
      expect(await ledger.pruneOldReports(30, 10)).toBe(0);
      for (const id of [first, second]) {
        expect((await ledger.certificate(id))!.report).toBeUndefined();
        expect((await ledger.certificateRecord(id))!.id).toBe(id);
      }
      expect((await ledger.certificate(third))!.report).toEqual(report);
      clock += 60_000;
      expect(await ledger.pruneOldReports(30, 1)).toBe(1);
      expect((await ledger.certificate(third))!.report).toBeUndefined();
    });

    it('answers null for a certificate it never stored', async () => {
      expect(await ledger.certificate('nope')).toBeNull();
    });

    it('opens an existing database without migrating it again', async () => {
      const token = await oneToken();
      const again = await open();
      try {
        expect(await again.status(token)).toMatchObject({ state: 'issued' });
        await again.ready();
      } finally {
        await again.close();
      }
    });
  });
}
