// What the service says about a certificate after issuing it: whether it is still current (valid, expired,
// superseded by a newer one for its domain, or revoked by the operator, with the reason and time), the
// domain's current certificate (for the badge and the certificate page), and the evidence it was judged on.
import { gunzipSync } from 'node:zlib';
import type { CertificateRecord, CertificateRegistry } from '../payments/gate.ts';
import type { Certificate } from '../signing/payload.ts';
import { UNICODE_WHITESPACE, trimOf } from '../lib/trim.ts';

export type CertificateStatusName = 'valid' | 'expired' | 'superseded' | 'revoked';

/** The status document (schemas/api/certificate-status.json); times are RFC 3339 UTC. */
export interface CertificateStatus {
  id: string;
  domain: string;
  status: CertificateStatusName;
  issued_at: string;
  expires_at: string | null;
  checked_at: string;
  revoked_at?: string;
  reason?: string;
  /** Revoked for a regression: the report of the run that found it. */
  report?: string;
  superseded_by?: string;
}

export interface KnownCertificate {
  certificate: Certificate;
  /** The canonical JSON, byte for byte as issued. */
  body: string;
  status: CertificateStatus;
}

/** Longest revocation reason kept: a sentence for a relying party, not a report. */
export const MAX_REASON_LENGTH = 500;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Revoked wins over everything (the operator's word), then expiry, then a newer certificate. */
export function statusOf(record: CertificateRecord, now: number): CertificateStatus {
  const finite = Number.isFinite(record.expiresAt);
  const base = {
    id: record.id,
    domain: record.domain,
    issued_at: iso(record.issuedAt),
    expires_at: finite ? iso(record.expiresAt) : null,
    checked_at: iso(now),
  };
  if (record.revokedAt !== null)
    return {
      ...base,
      status: 'revoked',
      revoked_at: iso(record.revokedAt),
      reason: record.revocationReason ?? '',
      ...(record.revocationReport ? { report: record.revocationReport } : {}),
    };
  if (finite && now >= record.expiresAt) return { ...base, status: 'expired' };
  if (record.supersededBy !== null) return { ...base, status: 'superseded', superseded_by: record.supersededBy };
  return { ...base, status: 'valid' };
}

export class RevocationError extends Error {
  override name = 'RevocationError';
}

export class Certificates {
  constructor(
    private readonly registry: CertificateRegistry,
    private readonly now: () => number = Date.now,
  ) {}

  /** The status of a certificate this service issued; null when it issued none with this id. */
  async status(id: string): Promise<CertificateStatus | null> {
    const record = await this.registry.certificateRecord(id);
    return record ? statusOf(record, this.now()) : null;
  }

  /** A certificate this service issued, with where it stands now; null when it issued none with this id. */
  async find(id: string): Promise<KnownCertificate | null> {
    const record = await this.registry.certificateRecord(id);
    return record ? this.known(record) : null;
  }

  /** The domain's newest certificate when it is valid now; null when it has none (or only expired ones). */
  async current(domain: string): Promise<KnownCertificate | null> {
    const record = await this.registry.latest(domain);
    const known = record ? this.known(record) : null;
    return known?.status.status === 'valid' ? known : null;
  }

  private known(record: CertificateRecord): KnownCertificate {
    return {
      certificate: JSON.parse(record.body) as Certificate,
      body: record.body,
      status: statusOf(record, this.now()),
    };
  }

  /** Withdraws a certificate (the operator's `dvs certificates revoke`); a second revocation keeps the first. */
  async revoke(id: string, reason: string): Promise<CertificateStatus | null> {
    const text = trimOf(reason, UNICODE_WHITESPACE);
    if (text === '') throw new RevocationError('a revocation needs a reason a relying party can read');
    if (text.length > MAX_REASON_LENGTH)
      throw new RevocationError(`the reason is longer than ${MAX_REASON_LENGTH} characters`);
    if (!(await this.registry.revoke(id, text, this.now()))) return null;
    return this.status(id);
  }

  /**
   * The evidence while the certificate stands (valid, or superseded and not yet expired): the canonical JSON of
   * the observations, the exact bytes whose SHA-256 is its evidence_digest. `gone`, with the status, when the
   * certificate exists but expired (its evidence is no longer kept) or was revoked (no longer vouched for).
   */
  async evidence(
    id: string,
  ): Promise<{ kind: 'found'; bytes: Buffer } | { kind: 'gone'; status: CertificateStatus } | null> {
    const record = await this.registry.certificateRecord(id);
    if (!record) return null;
    const status = statusOf(record, this.now());
    const stored = status.status === 'revoked' ? null : await this.registry.evidence(id, this.now());
    return stored ? { kind: 'found', bytes: gunzipSync(stored) } : { kind: 'gone', status };
  }
}
