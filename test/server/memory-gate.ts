// An in-memory PaymentGate for the service tests: tokens are added by the test, and the gate keeps the
// contract of src/payments/gate.ts (one reservation per token, commit or release, replay per domain). It is
// the certificate registry too, as the ledger is: certificates in commit order, revocations, evidence.
import { randomUUID } from 'node:crypto';
import type {
  CertificateRecord,
  CertificateRegistry,
  TokenRef,
  PaymentGate,
  Reservation,
  StoredCertificate,
  TokenDigest,
} from '../../src/payments/gate.ts';
import type { Certificate } from '../../src/signing/payload.ts';

const keyOf = (payment: TokenRef): string => (typeof payment === 'string' ? payment : payment.digest);

interface TokenState {
  domain: string | null;
  reservationId: string | null;
  certificate: StoredCertificate | null;
}

export class MemoryGate implements PaymentGate, CertificateRegistry {
  private readonly tokens = new Map<string, TokenState>();
  private readonly certificates = new Map<string, StoredCertificate>();
  private readonly revocations = new Map<string, { at: number; reason: string }>();
  readonly released: string[] = [];

  /** A fresh token that pays for one validation. */
  issue(): string {
    const token = `tok_${randomUUID()}`;
    this.tokens.set(token, { domain: null, reservationId: null, certificate: null });
    return token;
  }

  /** Where a token stands, without changing it. */
  state(token: string): 'unused' | 'reserved' | 'redeemed' | 'unknown' {
    const t = this.tokens.get(token);
    if (!t) return 'unknown';
    return t.certificate ? 'redeemed' : t.reservationId ? 'reserved' : 'unused';
  }

  /** Every token is its own digest here: the gate only has to tell the two kinds of payment apart. */
  digest(token: string): TokenDigest | null {
    return this.tokens.has(token) ? { digest: token } : null;
  }

  async reserve(payment: TokenRef, domain: string): Promise<Reservation> {
    const t = this.tokens.get(keyOf(payment));
    if (!t)
      return { kind: 'refused', reason: 'unknown', message: 'this payment token is not known; buy one at /checkout' };
    if (t.domain !== null && t.domain !== domain) {
      return {
        kind: 'refused',
        reason: 'other_domain',
        message: `this payment token paid for ${t.domain}, not ${domain}`,
      };
    }
    if (t.certificate) return { kind: 'redeemed', certificate: t.certificate };
    if (t.reservationId) return { kind: 'in_progress' };
    t.domain = domain;
    t.reservationId = randomUUID();
    return { kind: 'reserved', reservationId: t.reservationId };
  }

  async commit(payment: TokenRef, reservationId: string, certificate: StoredCertificate): Promise<void> {
    const t = this.tokens.get(keyOf(payment));
    if (!t || t.reservationId !== reservationId) throw new Error('commit without the reservation');
    t.certificate = certificate;
    this.certificates.set(certificate.id, certificate);
  }

  async release(payment: TokenRef, reservationId: string): Promise<void> {
    const t = this.tokens.get(keyOf(payment));
    if (!t || t.reservationId !== reservationId) return;
    t.reservationId = null;
    t.domain = null;
    this.released.push(keyOf(payment));
  }

  async certificate(id: string): Promise<StoredCertificate | null> {
    return this.certificates.get(id) ?? null;
  }

  async certificateRecord(id: string): Promise<CertificateRecord | null> {
    const stored = this.certificates.get(id);
    if (!stored) return null;
    const { payload } = JSON.parse(stored.body) as Certificate;
    const revoked = this.revocations.get(id);
    const later = [...this.certificates.values()];
    const newer = later
      .slice(later.indexOf(stored) + 1)
      .filter((c) => c.domain === stored.domain && !this.revocations.has(c.id))
      .at(-1);
    return {
      ...stored,
      issuedAt: Date.parse(payload.issued_at),
      expiresAt: stored.expiresAt ?? Date.parse(payload.expires_at),
      revokedAt: revoked?.at ?? null,
      revocationReason: revoked?.reason ?? null,
      supersededBy: newer?.id ?? null,
    };
  }

  /** Certificates are kept in the order they were committed, so the last unrevoked one is the latest. */
  async latest(domain: string): Promise<CertificateRecord | null> {
    const last = [...this.certificates.values()]
      .filter((c) => c.domain === domain && !this.revocations.has(c.id))
      .at(-1);
    return last ? this.certificateRecord(last.id) : null;
  }

  async revoke(id: string, reason: string, at: number): Promise<boolean> {
    if (!this.certificates.has(id)) return false;
    if (!this.revocations.has(id)) this.revocations.set(id, { at, reason });
    return true;
  }

  async evidence(id: string, now: number): Promise<Buffer | null> {
    const stored = this.certificates.get(id);
    return stored?.evidence && (stored.expiresAt ?? Infinity) > now ? stored.evidence : null;
  }

  /** Drops a certificate's report, as the ledger's retention does (DVS_REPORT_RETENTION). */
  dropReport(id: string): void {
    const stored = this.certificates.get(id);
    if (stored) delete stored.report;
  }
}
