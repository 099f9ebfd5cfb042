// The ledger's history of a domain: its certificates newest first, a page at a time. A page is a range of the
// (domain, created_at, id) index that starts after the cursor, so a domain with years of daily runs costs the
// same per page as one with a week.
import type { CertificateRecord, StoredCertificate } from './gate.ts';

/** Where a page ends: the last certificate it returned. */
export interface HistoryCursor {
  createdAt: number;
  id: string;
}

/** A certificate as the history lists it; times in ms since the epoch. */
export interface HistoryRow {
  id: string;
  body: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  revocationReason: string | null;
  revocationReport: string | null;
}

export interface HistoryStore {
  /** At most `limit` certificates of the domain issued before `before` (all when null), newest first. */
  history(domain: string, before: HistoryCursor | null, limit: number): Promise<HistoryRow[]>;
}

/** What the service's history reads of the ledger. */
export interface CertificateHistory {
  history(domain: string, before: HistoryCursor | null, limit: number): Promise<HistoryRow[]>;
  /** The newest unrevoked certificate of the domain: every earlier one is superseded by it. */
  latest(domain: string): Promise<CertificateRecord | null>;
  /** A certificate with the report it was returned with, while the ledger keeps that report. */
  certificate(id: string): Promise<StoredCertificate | null>;
}
