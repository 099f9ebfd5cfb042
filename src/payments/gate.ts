// The contract between a full validation and the payment ledger: one token pays for one validation.
// The service reserves the token before scanning, commits it with the certificate, and releases it when the
// validation did not complete, so a buyer never loses a token to a failure that was not theirs.

/** A certificate as stored with the token that paid for it. */
export interface StoredCertificate {
  id: string;
  domain: string;
  /** The canonical JSON of `{payload, jws}`, byte for byte as first returned. */
  body: string;
  /** When the certificate expires (ms since the epoch); its evidence is kept until then. */
  expiresAt?: number;
  /** The observations it was judged on: gzip of their canonical JSON. */
  evidence?: Buffer;
  /** The report the validation returned beside the certificate: gzip of its canonical JSON. */
  report?: Buffer;
}

/** A stored certificate with what happened to it since. Times are ms since the epoch. */
export interface CertificateRecord extends StoredCertificate {
  issuedAt: number;
  expiresAt: number;
  revokedAt: number | null;
  revocationReason: string | null;
  /** For a revocation by regression: the report of the run that found it. */
  revocationReport?: string | null;
  /** The newest unrevoked certificate issued later for the same domain, if any. */
  supersededBy: string | null;
}

/** What the ledger tells about the certificates it holds, and the operator's one action on them. */
export interface CertificateRegistry {
  certificateRecord(id: string): Promise<CertificateRecord | null>;
  /** The newest unrevoked certificate of the domain. */
  latest(domain: string): Promise<CertificateRecord | null>;
  /**
   * Withdraws a certificate, with the report that shows why when a run found a regression; false when there is
   * none with this id. A second revocation keeps the first.
   */
  revoke(id: string, reason: string, at: number, report?: string): Promise<boolean>;
  /** The gzip evidence, while the certificate has not expired (null after, or when none was stored). */
  evidence(id: string, now: number): Promise<Buffer | null>;
}

export type Reservation =
  /** The token is held for this validation; exactly one of commit/release must follow. */
  | { kind: 'reserved'; reservationId: string }
  /** The token already paid for a validation of this domain: its certificate, to return again. */
  | { kind: 'redeemed'; certificate: StoredCertificate }
  /** Another request holds the token for this domain right now. */
  | { kind: 'in_progress' }
  | { kind: 'refused'; reason: 'unknown' | 'expired' | 'other_domain' | 'wrong_mode'; message: string };

/**
 * A token known by its digest only, the key the ledger stores it under. A batch item keeps this instead of the
 * token until it runs, so the queue database, like the ledger, holds nothing a reader could spend: no request
 * accepts a digest in place of a token.
 */
export interface TokenDigest {
  digest: string;
}

/** What pays for a validation: the token a caller sent, or the digest a batch item kept of it. */
export type TokenRef = string | TokenDigest;

export interface PaymentGate {
  /**
   * The digest a batch item keeps of a token this service could accept (shaped as its tokens are, of its mode);
   * null for anything else, which no validation would take.
   */
  digest(token: string): TokenDigest | null;
  /** One atomic conditional update: at most one caller gets `reserved` for a token. */
  reserve(payment: TokenRef, domain: string): Promise<Reservation>;
  /** Records the certificate and marks the token redeemed. */
  commit(payment: TokenRef, reservationId: string, certificate: StoredCertificate): Promise<void>;
  /** Frees the token for another try (the validation failed or passed its deadline). */
  release(payment: TokenRef, reservationId: string): Promise<void>;
  /** A certificate issued earlier, by id, with the report it was returned with. */
  certificate(id: string): Promise<StoredCertificate | null>;
}
