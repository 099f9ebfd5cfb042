// Issued certificates as the pages and the badge read them: the certificate itself, when it was issued, until
// when it holds, and where it stands (valid, expired, superseded by a newer one for the domain, revoked).
// `CertificateReader` is the seam the pages depend on; `LedgerCertificates` reads through the ledger's lifecycle
// (`Certificates`), the one place that decides a certificate's status.
import type { Certificates, CertificateStatus as LedgerStatus, KnownCertificate } from './certificates.ts';
import { agentReadiness } from '../engine/readiness-level.ts';
import type { AgentReadiness } from '../engine/types.ts';
import { zoneLine } from '../signing/anchor.ts';
import type { Certificate } from '../signing/payload.ts';

export type CertificateState = 'valid' | 'expired' | 'superseded' | 'revoked';

export interface CertificateStatus {
  state: CertificateState;
  /** Why it was revoked, or which certificate superseded it. */
  reason?: string;
  /** When it expired or was revoked (RFC 3339). */
  at?: string;
  /** Revoked for a regression: the certificate page of the run that found it. */
  report?: string;
}

export interface CertificateView {
  id: string;
  domain: string;
  /** The canonical JSON `{payload, jws}`, byte for byte as issued. */
  body: string;
  certificate: Certificate;
  /** RFC 3339: the payload's `issued_at`, or when the ledger stored it (bodies older than issue 10 lack it). */
  issuedAt: string;
  /** RFC 3339, or null for a certificate the ledger knows no expiry of. */
  expiresAt: string | null;
  status: CertificateStatus;
  /** The DNS anchor record as a zone-file line, ready to paste (null for a body without one). */
  anchorLine: string | null;
  /** The agent-readiness level its results reach (absent for a body without results). */
  readiness?: AgentReadiness;
}

export interface CertificateReader {
  byId(id: string): Promise<CertificateView | null>;
  /** The domain's latest certificate while it is valid (not expired, superseded or revoked); else null. */
  current(domain: string): Promise<CertificateView | null>;
}

function pageStatus(known: LedgerStatus): CertificateStatus {
  switch (known.status) {
    case 'revoked':
      return {
        state: 'revoked',
        reason: known.reason ?? '',
        ...(known.revoked_at ? { at: known.revoked_at } : {}),
        ...(known.report ? { report: known.report } : {}),
      };
    case 'expired':
      return { state: 'expired', ...(known.expires_at ? { at: known.expires_at } : {}) };
    case 'superseded':
      return { state: 'superseded', reason: `a newer certificate, ${known.superseded_by ?? ''}, was issued` };
    default:
      return { state: 'valid' };
  }
}

function viewOf({ certificate, body, status }: KnownCertificate): CertificateView {
  // The ledger keeps bodies byte for byte, those of earlier payload versions too: read their members as optional.
  const payload = certificate.payload as Partial<Certificate['payload']> &
    Pick<Certificate['payload'], 'id' | 'domain'>;
  return {
    id: payload.id,
    domain: payload.domain,
    body,
    certificate,
    issuedAt: payload.issued_at ?? status.issued_at,
    expiresAt: status.expires_at,
    status: pageStatus(status),
    anchorLine: payload.anchor ? zoneLine(payload.anchor) : null,
    ...(payload.results ? { readiness: agentReadiness(payload.results) } : {}),
  };
}

export class LedgerCertificates implements CertificateReader {
  constructor(private readonly certificates: Pick<Certificates, 'find' | 'current'>) {}

  async byId(id: string): Promise<CertificateView | null> {
    const known = await this.certificates.find(id);
    return known ? viewOf(known) : null;
  }

  async current(domain: string): Promise<CertificateView | null> {
    const known = await this.certificates.current(domain);
    return known ? viewOf(known) : null;
  }
}
