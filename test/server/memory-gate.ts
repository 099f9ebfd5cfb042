// An in-memory PaymentGate for the service tests: tokens are added by the test, and the gate keeps the
// contract of src/payments/gate.ts (one reservation per token, commit or release, replay per domain).
import { randomUUID } from 'node:crypto';
import type { PaymentGate, Reservation, StoredCertificate } from '../../src/payments/gate.ts';

interface TokenState {
  domain: string | null;
  reservationId: string | null;
  certificate: StoredCertificate | null;
}

export class MemoryGate implements PaymentGate {
  private readonly tokens = new Map<string, TokenState>();
  private readonly certificates = new Map<string, StoredCertificate>();
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

  async reserve(token: string, domain: string): Promise<Reservation> {
    const t = this.tokens.get(token);
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

  async commit(token: string, reservationId: string, certificate: StoredCertificate): Promise<void> {
    const t = this.tokens.get(token);
    if (!t || t.reservationId !== reservationId) throw new Error('commit without the reservation');
    t.certificate = certificate;
    this.certificates.set(certificate.id, certificate);
  }

  async release(token: string, reservationId: string): Promise<void> {
    const t = this.tokens.get(token);
    if (!t || t.reservationId !== reservationId) return;
    t.reservationId = null;
    t.domain = null;
    this.released.push(token);
  }

  async certificate(id: string): Promise<StoredCertificate | null> {
    return this.certificates.get(id) ?? null;
  }

  /** Certificates are kept in the order they were committed, so the last one for the domain is the latest. */
  async latestCertificate(domain: string): Promise<StoredCertificate | null> {
    return [...this.certificates.values()].filter((c) => c.domain === domain).at(-1) ?? null;
  }
}
