// Generated from schemas/api/certificate-status.json by `npm run types`; edit the schema, not this file.

/**
 * Whether a certificate this service issued is still current. Revoked wins over expired, expired over superseded.
 */
export interface CertificateStatus {
  id: string;
  domain: string;
  status: 'valid' | 'expired' | 'superseded' | 'revoked';
  issued_at: string;
  /**
   * Null only for a certificate stored without an expiry.
   */
  expires_at: string | null;
  /**
   * When the service answered.
   */
  checked_at: string;
  /**
   * Status revoked: when.
   */
  revoked_at?: string;
  /**
   * Status revoked: why. `regression` when a monitoring run found the domain worse than this certificate says (see report); otherwise the operator's reason.
   */
  reason?: string;
  /**
   * Status revoked for regression: the certificate page of the run that found it (its report).
   */
  report?: string;
  /**
   * Status superseded: the newer certificate for the domain.
   */
  superseded_by?: string;
}
