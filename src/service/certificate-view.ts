// Issued certificates as the pages and the badge read them: the certificate itself, when it was issued, until
// when it holds, and where it stands (valid, expired, superseded by a newer one for the domain, revoked).
// `CertificateReader` is the seam: `LedgerCertificates` derives what it can from the ledger as it is today; a
// reader over the issuer's own validity and status records can take its place without the pages changing.
import type { Certificates, CertificateStatus as LedgerStatus } from './certificates.ts';
import type { PaymentGate } from '../payments/gate.ts';
import { zoneLine } from '../signing/anchor.ts';
import type { Certificate } from '../signing/payload.ts';

export type CertificateState = 'valid' | 'expired' | 'superseded' | 'revoked';

export interface CertificateStatus {
  state: CertificateState;
  /** Why it was revoked, or which certificate superseded it. */
  reason?: string;
  /** When it expired or was revoked (RFC 3339). */
  at?: string;
}

export interface CertificateView {
  id: string;
  domain: string;
  /** The canonical JSON `{payload, jws}`, byte for byte as issued. */
  body: string;
  certificate: Certificate;
  /** RFC 3339: the payload's `issued_at` when it has one, else when the evidence was observed. */
  issuedAt: string;
  /** RFC 3339, or null for a certificate issued without an expiry. */
  expiresAt: string | null;
  status: CertificateStatus;
  /** The DNS anchor record as a zone-file line, ready to paste (null for a payload without one). */
  anchorLine: string | null;
}

export interface CertificateReader {
  byId(id: string): Promise<CertificateView | null>;
  /** The domain's latest certificate while it is valid (not expired, superseded or revoked); else null. */
  current(domain: string): Promise<CertificateView | null>;
}

/** Members later certificate versions add to the payload; read when present. */
interface Validity {
  issued_at?: unknown;
  expires_at?: unknown;
}

const timeOf = (value: unknown): string | null =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : null;

/** Today's reader: the ledger's stored certificates, their own validity members, and the domain's latest one. */
function pageStatus(known: LedgerStatus): CertificateStatus {
  switch (known.status) {
    case 'revoked':
      return { state: 'revoked', reason: known.reason ?? '', ...(known.revoked_at ? { at: known.revoked_at } : {}) };
    case 'expired':
      return { state: 'expired', ...(known.expires_at ? { at: known.expires_at } : {}) };
    case 'superseded':
      return { state: 'superseded', reason: `a newer certificate, ${known.superseded_by ?? ''}, was issued` };
    default:
      return { state: 'valid' };
  }
}

export class LedgerCertificates implements CertificateReader {
  constructor(
    private readonly gate: Pick<PaymentGate, 'certificate' | 'latestCertificate'>,
    private readonly now: () => Date = () => new Date(),
    /** The ledger's lifecycle (revocations included); without it, status is derived from expiry and recency. */
    private readonly lifecycle?: Pick<Certificates, 'status'>,
  ) {}

  async byId(id: string): Promise<CertificateView | null> {
    const stored = await this.gate.certificate(id);
    if (!stored) return null;
    const latest = await this.gate.latestCertificate(stored.domain);
    return this.withLifecycle(this.view(stored.id, stored.domain, stored.body, latest?.id ?? stored.id));
  }

  async current(domain: string): Promise<CertificateView | null> {
    const latest = await this.gate.latestCertificate(domain);
    if (!latest) return null;
    const view = await this.withLifecycle(this.view(latest.id, latest.domain, latest.body, latest.id));
    return view.status.state === 'valid' ? view : null;
  }

  private async withLifecycle(view: CertificateView): Promise<CertificateView> {
    const known = await this.lifecycle?.status(view.id);
    // A registry that keeps no history says valid for lack of knowledge; what the ledger showed above stands.
    return known && known.status !== 'valid' ? { ...view, status: pageStatus(known) } : view;
  }

  private view(id: string, domain: string, body: string, latestId: string): CertificateView {
    const certificate = JSON.parse(body) as Certificate;
    const payload = certificate.payload as Certificate['payload'] & Validity;
    const issuedAt = timeOf(payload.issued_at) ?? payload.observed_at;
    const expiresAt = timeOf(payload.expires_at);
    let status: CertificateStatus = { state: 'valid' };
    if (expiresAt !== null && Date.parse(expiresAt) <= this.now().getTime())
      status = { state: 'expired', at: expiresAt };
    else if (latestId !== id) status = { state: 'superseded', reason: `a newer certificate, ${latestId}, was issued` };
    const anchorLine = certificate.payload.anchor ? zoneLine(certificate.payload.anchor) : null;
    return { id, domain, body, certificate, issuedAt, expiresAt, status, anchorLine };
  }
}
