// Accounts of bulk callers and their API keys. A key is shown once, when the account is made; the ledger keeps
// only its SHA-256, so a copy of the database authenticates nobody. Limits are per account: domains a day
// (charged atomically in the database, so they hold across instances), items per batch, scans at once, and
// monitors (counted in the queue database when one is made, src/service/monitors.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { AccountRow, AccountStore } from './account-store.ts';

/** `dvs_key_` and 256 random bits in base64url: told apart from a payment token at a glance. */
const KEY_PREFIX = 'dvs_key_';
const KEY_FORMAT = /^dvs_key_[A-Za-z0-9_-]{43}$/;
const NAME_FORMAT = /^[a-z0-9][a-z0-9._-]{0,62}$/;

export interface AccountLimits {
  domainsPerDay: number;
  maxBatch: number;
  concurrency: number;
  maxMonitors: number;
}

/** A thousand monitors on P1D are a thousand Full Validations a day: a tenth of the default daily quota. */
export const DEFAULT_LIMITS: AccountLimits = {
  domainsPerDay: 10_000,
  maxBatch: 10_000,
  concurrency: 8,
  maxMonitors: 1_000,
};

/** An account as callers and the operator see it (never its key or hash). */
export interface Account extends AccountLimits {
  id: string;
  name: string;
  createdAt: Date;
  revokedAt: Date | null;
  /** Domains taken today (UTC) out of domainsPerDay. */
  usedToday: number;
}

export class AccountError extends Error {
  override name = 'AccountError';
}

/** Why a charge was refused: the day's quota, with the seconds until it starts again. */
export interface QuotaRefusal {
  remaining: number;
  retryAfterSeconds: number;
}

export const keyHash = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The UTC date a time falls on, as the quota counts days. */
const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const secondsToNextDay = (ms: number): number => {
  const next = new Date(ms);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - ms) / 1000));
};

export class Accounts {
  constructor(
    private readonly store: AccountStore,
    private readonly now: () => number = Date.now,
  ) {}

  private view(row: AccountRow): Account {
    return {
      id: row.id,
      name: row.name,
      domainsPerDay: row.domainsPerDay,
      maxBatch: row.maxBatch,
      concurrency: row.concurrency,
      maxMonitors: row.maxMonitors,
      createdAt: new Date(row.createdAt),
      revokedAt: row.revokedAt === null ? null : new Date(row.revokedAt),
      usedToday: row.quotaDay === utcDay(this.now()) ? row.quotaUsed : 0,
    };
  }

  /** Makes the account and returns its API key: the only time the key exists outside the caller's hands. */
  async create(name: string, limits: Partial<AccountLimits> = {}): Promise<{ account: Account; key: string }> {
    if (!NAME_FORMAT.test(name))
      throw new AccountError(
        `account name "${name}": use 1 to 63 lower-case letters, digits, dots, dashes or underscores, starting with a letter or digit`,
      );
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const row = {
      id: `acct_${randomBytes(8).toString('hex')}`,
      name,
      keyHash: keyHash(key),
      ...DEFAULT_LIMITS,
      ...limits,
      createdAt: this.now(),
    };
    if (!(await this.store.insertAccount(row)))
      throw new AccountError(`an account named "${name}" exists already (revoked names stay taken)`);
    return { account: this.view({ ...row, revokedAt: null, quotaDay: '', quotaUsed: 0 }), key };
  }

  async list(): Promise<Account[]> {
    return (await this.store.accounts()).map((r) => this.view(r));
  }

  async byName(name: string): Promise<Account | null> {
    const row = await this.store.accountByName(name);
    return row ? this.view(row) : null;
  }

  /** Revokes the account's key at once: its next request is refused. False when no live account has the name. */
  revoke(name: string): Promise<boolean> {
    return this.store.revokeAccount(name, this.now());
  }

  /** The live account an API key belongs to; null for a key of the wrong shape, unknown or revoked. */
  async authenticate(key: string): Promise<Account | null> {
    if (!KEY_FORMAT.test(key)) return null;
    const row = await this.store.accountByKeyHash(keyHash(key));
    return row && row.revokedAt === null ? this.view(row) : null;
  }

  /** Takes `count` domains of today's quota, or says how long until there is room again. */
  async charge(account: Account, count: number): Promise<QuotaRefusal | null> {
    const now = this.now();
    const day = utcDay(now);
    if ((await this.store.chargeQuota(account.id, day, count)) !== null) return null;
    const fresh = await this.store.accountByName(account.name);
    const used = fresh && fresh.quotaDay === day ? fresh.quotaUsed : 0;
    return { remaining: Math.max(0, account.domainsPerDay - used), retryAfterSeconds: secondsToNextDay(now) };
  }

  /** Gives back a charge made today that bought nothing (the batch could not be stored). */
  refund(account: Account, count: number): Promise<void> {
    return this.store.refundQuota(account.id, utcDay(this.now()), count);
  }
}
