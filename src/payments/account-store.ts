// What an accounts backend does: plain storage operations on account rows, each one atomic. The meaning of a
// key, a quota and a revocation lives once, in accounts.ts, over either backend.

/** An account as stored; times are milliseconds since the epoch. */
export interface AccountRow {
  id: string;
  name: string;
  keyHash: string;
  domainsPerDay: number;
  maxBatch: number;
  concurrency: number;
  maxMonitors: number;
  createdAt: number;
  revokedAt: number | null;
  /** The UTC date (YYYY-MM-DD) quotaUsed counts for; another date means nothing is used yet today. */
  quotaDay: string;
  quotaUsed: number;
}

export type NewAccountRow = Omit<AccountRow, 'revokedAt' | 'quotaDay' | 'quotaUsed'>;

export interface AccountStore {
  /** False when the name is taken (by a live or a revoked account). */
  insertAccount(row: NewAccountRow): Promise<boolean>;
  accountByKeyHash(keyHash: string): Promise<AccountRow | null>;
  accountByName(name: string): Promise<AccountRow | null>;
  accounts(): Promise<AccountRow[]>;
  /** Sets revoked_at unless already set; false when there is no such live account. */
  revokeAccount(name: string, at: number): Promise<boolean>;
  /**
   * Adds `count` to the day's use of a live account when it stays within domains_per_day, in one conditional
   * update; returns the day's new total, or null when it would not fit.
   */
  chargeQuota(id: string, day: string, count: number): Promise<number | null>;
  /** Gives back `count` of the day's use (a batch that could not be stored after all). */
  refundQuota(id: string, day: string, count: number): Promise<void>;
}
