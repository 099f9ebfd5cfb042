// What a ledger backend does: plain storage operations on token rows, each one atomic. The rules about what a
// failed reservation means live once, in ledger.ts, over either backend.
import type { NodeId, NodeReader } from '../lib/merkle.ts';
import type { AccountStore } from './account-store.ts';
import type { HistoryStore } from './history-store.ts';
import type { StoredCertificate } from './gate.ts';

export type TokenState = 'issued' | 'reserved' | 'redeemed';

/** A token row; times are milliseconds since the epoch. */
export interface TokenRow {
  hash: string;
  createdAt: number;
  expiresAt: number;
  state: TokenState;
  reservationId: string | null;
  /** End of the reservation's lease: after it, another request may take the token. */
  reservedUntil: number | null;
  domain: string | null;
  certificateId: string | null;
  /** Where the token came from: `checkout`, `cli`, or the processor's payment reference. */
  source: string;
}

export interface NewTokenRow {
  hash: string;
  createdAt: number;
  expiresAt: number;
  source: string;
}

export interface ReserveRequest {
  hash: string;
  domain: string;
  reservationId: string;
  now: number;
  leaseUntil: number;
}

/** A certificate row with its later history; times in ms since the epoch. */
export interface CertificateRow {
  id: string;
  domain: string;
  body: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  revocationReason: string | null;
  /** For a revocation by regression: the report of the run that found it. */
  revocationReport: string | null;
  supersededBy: string | null;
}

/** A certificate as both backends read it back: a column never written is null, not absent. */
export interface RawStoredCertificate {
  id: string;
  domain: string;
  body: string;
  report: Buffer | null;
}

export function storedCertificate({ report, ...rest }: RawStoredCertificate): StoredCertificate {
  return report ? { ...rest, report } : rest;
}

/** A signed tree head as stored: the first one signed for its size is the one every process serves. */
export interface TreeHeadRow {
  treeSize: number;
  /** Lower-case hex. */
  rootHash: string;
  /** RFC 3339 UTC. */
  timestamp: string;
  /** The detached JWS over the head (the service layer makes and explains it). */
  signature: string;
}

/**
 * The transparency log kept beside the certificates: `commit` appends each certificate's leaf in its own
 * transaction; these read the log back.
 */
export interface LogStore {
  /** How many certificates the log holds. */
  logSize(): Promise<number>;
  /** The leaf index of a certificate, or null when it is not in the log. */
  logIndex(certificateId: string): Promise<number | null>;
  /** Reads the given perfect-subtree hashes; the reader throws for one the log does not hold. */
  logNodes(ids: readonly NodeId[]): Promise<NodeReader>;
  logHead(treeSize: number): Promise<TreeHeadRow | null>;
  /** Stores the head unless one is stored for its size already; returns the stored one. */
  saveLogHead(head: TreeHeadRow): Promise<TreeHeadRow>;
}

export interface LedgerStore extends LogStore, HistoryStore {
  readonly backend: 'sqlite' | 'postgres';
  /** The accounts of bulk callers, kept in the ledger database. */
  readonly accounts: AccountStore;
  /** Inserts the rows that do not exist yet (by hash); returns how many were new. */
  insertTokens(rows: NewTokenRow[]): Promise<number>;
  /**
   * One conditional update: takes the token if it is issued, or reserved with a lapsed lease, and not expired.
   * True when this call took it.
   */
  tryReserve(req: ReserveRequest): Promise<boolean>;
  find(hash: string): Promise<TokenRow | null>;
  /** Tokens from `source` still issued, unreserved and unexpired at `now` (the test checkout's cap). */
  countUnused(source: string, now: number): Promise<number>;
  /**
   * Stores the certificate, appends its body (the leaf) to the transparency log, and marks the token redeemed,
   * in one transaction, if the reservation is still ours.
   */
  commit(hash: string, reservationId: string, certificate: StoredCertificate, now: number): Promise<boolean>;
  /** Returns the token to `issued` if the reservation is still ours. */
  release(hash: string, reservationId: string): Promise<boolean>;
  certificate(id: string): Promise<StoredCertificate | null>;
  certificateRow(id: string): Promise<CertificateRow | null>;
  /** The id of the newest unrevoked certificate of the domain. */
  latestCertificateId(domain: string): Promise<string | null>;
  /** Sets revoked_at, the reason and its report link unless already revoked; false when there is no such certificate. */
  revoke(id: string, reason: string, at: number, report?: string): Promise<boolean>;
  /** The stored evidence while the certificate has not expired. */
  evidence(id: string, now: number): Promise<Buffer | null>;
  /**
   * Drops the evidence of certificates that expired by `now`, the earliest expiry first; returns how many.
   * Bounded, so it never holds the database for longer than one small batch: PostgreSQL clears at most `limit`
   * rows; SQLite deletes the files of the weeks of expiry that have ended, whatever the limit, reading no row
   * (src/payments/sqlite-evidence.ts), so it may return more than `limit`, and keeps evidence up to a week
   * past its expiry (never served after it).
   */
  pruneEvidence(now: number, limit: number): Promise<number>;
  /** Drops the reports of at most `limit` certificates issued before `before`, the oldest first; returns how many. */
  pruneReports(before: number, limit: number): Promise<number>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
