// The contract between a full validation and the payment ledger: one token pays for one validation.
// The service reserves the token before scanning, commits it with the certificate, and releases it when the
// validation did not complete, so a buyer never loses a token to a failure that was not theirs.

/** A certificate as stored with the token that paid for it. */
export interface StoredCertificate {
  id: string;
  domain: string;
  /** The canonical JSON of `{payload, jws}`, byte for byte as first returned. */
  body: string;
}

export type Reservation =
  /** The token is held for this validation; exactly one of commit/release must follow. */
  | { kind: 'reserved'; reservationId: string }
  /** The token already paid for a validation of this domain: its certificate, to return again. */
  | { kind: 'redeemed'; certificate: StoredCertificate }
  /** Another request holds the token for this domain right now. */
  | { kind: 'in_progress' }
  | { kind: 'refused'; reason: 'unknown' | 'expired' | 'other_domain' | 'wrong_mode'; message: string };

export interface PaymentGate {
  /** One atomic conditional update: at most one caller gets `reserved` for a token. */
  reserve(token: string, domain: string): Promise<Reservation>;
  /** Records the certificate and marks the token redeemed. */
  commit(token: string, reservationId: string, certificate: StoredCertificate): Promise<void>;
  /** Frees the token for another try (the validation failed or passed its deadline). */
  release(token: string, reservationId: string): Promise<void>;
  /** A certificate issued earlier, by id. */
  certificate(id: string): Promise<StoredCertificate | null>;
  /** The certificate issued last for a domain (the badge and the certificate pages read it). */
  latestCertificate(domain: string): Promise<StoredCertificate | null>;
}
