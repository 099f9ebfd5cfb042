// The ledger: tokens, their reservations and the certificates they paid for, over either backend. One token
// pays for one validation; a reservation that is neither committed nor released lapses after its lease, so a
// crashed process cannot keep a buyer's token.
import { randomUUID } from 'node:crypto';
import { Accounts } from './accounts.ts';
import type {
  CertificateRecord,
  CertificateRegistry,
  PaymentGate,
  Reservation,
  StoredCertificate,
  TokenDigest,
  TokenRef,
} from './gate.ts';
import type { LedgerStore, LogStore, TokenRow, TokenState } from './store.ts';
import type { HistoryCursor, HistoryRow } from './history-store.ts';
import { isTokenShaped, newToken, tokenHash, tokenModeOf, type TokenMode } from './tokens.ts';

export interface LedgerOptions {
  mode: TokenMode;
  tokenTtlSeconds: number;
  reservationLeaseSeconds: number;
  /** The clock (ms since the epoch); tests move it instead of waiting. */
  now?: () => number;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export interface TokenStatus {
  state: TokenState;
  /** True when the token can no longer start a validation because its expiry passed (it was never redeemed). */
  expired: boolean;
  createdAt: Date;
  expiresAt: Date;
  /** The domain a reservation or redemption is for. */
  domain: string | null;
  certificateId: string | null;
  /** When the current reservation lapses (state `reserved` only). */
  reservedUntil: Date | null;
  source: string;
}

/** A token held for a later validation (a monitor's prepaid run), or why it cannot be. */
export type Hold =
  | { kind: 'held'; hash: string; expiresAt: number }
  | { kind: 'refused'; reason: 'unknown' | 'wrong_mode' | 'expired' | 'spent' | 'in_use'; message: string };

/** Where a held token stands: still held, spent by its holder (on this certificate), or no longer the holder's. */
export type HeldState = { kind: 'held' } | { kind: 'spent'; certificateId: string } | { kind: 'lost' };

/** The ledger as a monitor uses it: tokens held for later runs, spent one per run, and its revocations. */
export interface TokenHolder {
  hold(token: string, domain: string, holderId: string): Promise<Hold>;
  heldState(hash: string, holderId: string): Promise<HeldState>;
  spendHeld(hash: string, holderId: string, certificate: StoredCertificate): Promise<boolean>;
  releaseHeld(hash: string, holderId: string): Promise<boolean>;
  revoke(id: string, reason: string, at: number, report?: string): Promise<boolean>;
  certificate(id: string): Promise<StoredCertificate | null>;
}

/** Holders' reservation ids start so: a token held for a monitor is refused to others with that reason. */
export const MONITOR_HOLDER_PREFIX = 'mon_';

export class ReservationLostError extends Error {
  override name = 'ReservationLostError';
}

/** How often a reservation is retried when the token changed between the update and the look at why it failed. */
const RESERVE_ATTEMPTS = 3;

export class Ledger implements PaymentGate, CertificateRegistry, TokenHolder {
  private readonly now: () => number;

  constructor(
    private readonly store: LedgerStore,
    private readonly opts: LedgerOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** The accounts of bulk callers and their API keys, in the same database. */
  get accounts(): Accounts {
    return (this.accountsView ??= new Accounts(this.store.accounts, this.now));
  }

  private accountsView: Accounts | undefined;

  get backend(): LedgerStore['backend'] {
    return this.store.backend;
  }

  get mode(): TokenMode {
    return this.opts.mode;
  }

  /** The transparency log kept beside the certificates (each commit appends one leaf). */
  get log(): LogStore {
    return this.store;
  }

  /** Mints new random tokens. */
  async issue(opts: { count?: number; ttlSeconds?: number; source: string }): Promise<IssuedToken[]> {
    const createdAt = this.now();
    const expiresAt = createdAt + (opts.ttlSeconds ?? this.opts.tokenTtlSeconds) * 1000;
    const tokens = Array.from({ length: opts.count ?? 1 }, () => newToken(this.opts.mode));
    await this.store.insertTokens(
      tokens.map((t) => ({ hash: tokenHash(t), createdAt, expiresAt, source: opts.source })),
    );
    return tokens.map((token) => ({ token, expiresAt: new Date(expiresAt) }));
  }

  /**
   * Records a token made elsewhere (derived from a processor's payment reference). Idempotent: a webhook that
   * arrives twice mints once. True when this call created it.
   */
  async record(token: string, source: string): Promise<boolean> {
    const createdAt = this.now();
    const inserted = await this.store.insertTokens([
      { hash: tokenHash(token), createdAt, expiresAt: createdAt + this.opts.tokenTtlSeconds * 1000, source },
    ]);
    return inserted === 1;
  }

  async status(token: string): Promise<TokenStatus | null> {
    if (!isTokenShaped(token)) return null;
    const row = await this.store.find(tokenHash(token));
    if (!row) return null;
    const now = this.now();
    const lapsed = row.state === 'reserved' && (row.reservedUntil ?? 0) < now;
    // A lapsed reservation is as good as issued: the next request takes it.
    const state: TokenState = lapsed ? 'issued' : row.state;
    return {
      state,
      expired: state !== 'redeemed' && row.expiresAt <= now,
      createdAt: new Date(row.createdAt),
      expiresAt: new Date(row.expiresAt),
      domain: state === 'issued' ? null : row.domain,
      certificateId: row.certificateId,
      reservedUntil: state === 'reserved' && row.reservedUntil !== null ? new Date(row.reservedUntil) : null,
      source: row.source,
    };
  }

  /** Unused, unexpired tokens from `source`. */
  unusedCount(source: string): Promise<number> {
    return this.store.countUnused(source, this.now());
  }

  digest(token: string): TokenDigest | null {
    return isTokenShaped(token) && tokenModeOf(token) === this.opts.mode ? { digest: tokenHash(token) } : null;
  }

  async reserve(payment: TokenRef, domain: string): Promise<Reservation> {
    if (typeof payment === 'string') {
      if (!isTokenShaped(payment)) return refusedUnknown();
      if (tokenModeOf(payment) !== this.opts.mode) return refusedWrongMode(this.opts.mode);
    }
    const hash = hashOf(payment);
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
      const reservationId = randomUUID();
      const now = this.now();
      if (
        await this.store.tryReserve({
          hash,
          domain,
          reservationId,
          now,
          leaseUntil: now + this.opts.reservationLeaseSeconds * 1000,
        })
      ) {
        return { kind: 'reserved', reservationId };
      }
      const why = await this.whyNot(await this.store.find(hash), domain, this.now());
      if (why) return why;
    }
    // The token keeps changing hands between our update and our look: someone else is using it right now.
    return { kind: 'in_progress' };
  }

  /** Why a reservation did not match; null when the token became free in between (try again). */
  private async whyNot(row: TokenRow | null, domain: string, now: number): Promise<Reservation | null> {
    if (!row) return refusedUnknown();
    if (row.state === 'redeemed') {
      if (row.domain === domain && row.certificateId) {
        const certificate = await this.store.certificate(row.certificateId);
        if (certificate) return { kind: 'redeemed', certificate };
      }
      return {
        kind: 'refused',
        reason: 'other_domain',
        message: `this payment token has already paid for a Full Validation of ${row.domain}; one token validates one domain. Get another at /checkout.`,
      };
    }
    if (row.expiresAt <= now) {
      return {
        kind: 'refused',
        reason: 'expired',
        message: `this payment token expired unused on ${new Date(row.expiresAt).toISOString()}; get a new one at /checkout.`,
      };
    }
    if (row.state === 'reserved' && (row.reservedUntil ?? 0) >= now) {
      if (row.reservationId?.startsWith(MONITOR_HOLDER_PREFIX))
        return {
          kind: 'refused',
          reason: 'other_domain',
          message:
            'this payment token is held by a monitor as a prepaid run; delete the monitor to have it back, or use another token.',
        };
      if (row.domain === domain) return { kind: 'in_progress' };
      return {
        kind: 'refused',
        reason: 'other_domain',
        message:
          'this payment token is being used right now for a Full Validation of another domain; one token validates one domain.',
      };
    }
    return null;
  }

  /**
   * Holds a token for a validation that runs later (a monitor's run): reserved under the holder's id until the
   * token's own expiry, so nobody else can spend it meanwhile, while the holder keeps only its hash. Holding it
   * again for the same holder changes nothing.
   */
  async hold(token: string, domain: string, holderId: string): Promise<Hold> {
    if (!isTokenShaped(token)) return { ...refusedUnknown(), reason: 'unknown' };
    if (tokenModeOf(token) !== this.opts.mode) return { ...refusedWrongMode(this.opts.mode), reason: 'wrong_mode' };
    const hash = tokenHash(token);
    const row = await this.store.find(hash);
    if (!row) return { ...refusedUnknown(), reason: 'unknown' };
    const held: Hold = { kind: 'held', hash, expiresAt: row.expiresAt };
    if (row.state === 'reserved' && row.reservationId === holderId) return held;
    const now = this.now();
    if (await this.store.tryReserve({ hash, domain, reservationId: holderId, now, leaseUntil: row.expiresAt }))
      return held;
    const after = (await this.store.find(hash)) ?? row;
    if (after.state === 'redeemed')
      return {
        kind: 'refused',
        reason: 'spent',
        message: `this payment token has already paid for a Full Validation of ${after.domain}; get another at /checkout.`,
      };
    if (after.expiresAt <= now)
      return {
        kind: 'refused',
        reason: 'expired',
        message: `this payment token expired unused on ${new Date(after.expiresAt).toISOString()}; get a new one at /checkout.`,
      };
    return {
      kind: 'refused',
      reason: 'in_use',
      message: 'this payment token is in use right now (by a running validation or a monitor); use another.',
    };
  }

  async heldState(hash: string, holderId: string): Promise<HeldState> {
    const row = await this.store.find(hash);
    if (row?.reservationId !== holderId) return { kind: 'lost' };
    if (row.state === 'reserved') return { kind: 'held' };
    if (row.state === 'redeemed' && row.certificateId) return { kind: 'spent', certificateId: row.certificateId };
    return { kind: 'lost' };
  }

  /** Spends a held token on the certificate of its holder's run; false when the holder no longer holds it. */
  spendHeld(hash: string, holderId: string, certificate: StoredCertificate): Promise<boolean> {
    return this.store.commit(hash, holderId, certificate, this.now());
  }

  /** Gives a held token back to its buyer (the monitor was deleted): it is issued again, spendable anywhere. */
  releaseHeld(hash: string, holderId: string): Promise<boolean> {
    return this.store.release(hash, holderId);
  }

  async commit(payment: TokenRef, reservationId: string, certificate: StoredCertificate): Promise<void> {
    if (!(await this.store.commit(hashOf(payment), reservationId, certificate, this.now()))) {
      throw new ReservationLostError(
        `reservation ${reservationId} is no longer held (its lease lapsed and another request took the token); certificate ${certificate.id} was not stored`,
      );
    }
  }

  async release(payment: TokenRef, reservationId: string): Promise<void> {
    // False means the lease lapsed and someone else holds the token now: nothing of ours to free.
    await this.store.release(hashOf(payment), reservationId);
  }

  certificate(id: string): Promise<StoredCertificate | null> {
    return this.store.certificate(id);
  }

  async certificateRecord(id: string): Promise<CertificateRecord | null> {
    const row = await this.store.certificateRow(id);
    if (!row) return null;
    const { createdAt, expiresAt, ...rest } = row;
    return { ...rest, issuedAt: createdAt, expiresAt: expiresAt ?? expiryInBody(row.body) };
  }

  async latest(domain: string): Promise<CertificateRecord | null> {
    const id = await this.store.latestCertificateId(domain);
    return id === null ? null : this.certificateRecord(id);
  }

  /** A page of the domain's certificates, newest first (history-store.ts). */
  history(domain: string, before: HistoryCursor | null, limit: number): Promise<HistoryRow[]> {
    return this.store.history(domain, before, limit);
  }

  revoke(id: string, reason: string, at: number, report?: string): Promise<boolean> {
    return this.store.revoke(id, reason, at, report);
  }

  evidence(id: string, now: number): Promise<Buffer | null> {
    return this.store.evidence(id, now);
  }

  /**
   * Drops the evidence of certificates that have expired, in a batch of up to `limit` or of whole weeks on
   * SQLite (LedgerStore.pruneEvidence); readers stop seeing it at expiry already, this frees the space. Returns
   * how many; fewer than `limit` means none is left.
   */
  pruneExpiredEvidence(limit: number): Promise<number> {
    return this.store.pruneEvidence(this.now(), limit);
  }

  /**
   * Drops the reports of up to `limit` certificates issued more than `retentionSeconds` ago. The certificate
   * stays whole: a token presented again then gets the certificate without its report.
   */
  pruneOldReports(retentionSeconds: number, limit: number): Promise<number> {
    return this.store.pruneReports(this.now() - retentionSeconds * 1000, limit);
  }

  /** Resolves when the database answers (readiness). */
  ready(): Promise<void> {
    return this.store.ping();
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/** The key a token is stored under. */
const hashOf = (payment: TokenRef): string => (typeof payment === 'string' ? tokenHash(payment) : payment.digest);

/** A token minted in the other mode: a test token never pays where money is taken, nor a live one in test mode. */
function refusedWrongMode(serviceMode: TokenMode): Refused {
  const message =
    serviceMode === 'live'
      ? 'this is a test-mode token (dvs_test_…): this service takes real payments and accepts only live tokens (dvs_live_…). Buy one at /checkout.'
      : 'this is a live token (dvs_live_…): this service runs the test-mode checkout and accepts only test tokens (dvs_test_…). Use the token at the service that sold it, or get a test token at /checkout.';
  return { kind: 'refused', reason: 'wrong_mode', message };
}

type Refused = Extract<Reservation, { kind: 'refused' }>;

/** Rows stored before expiry had a column: the payload's own expires_at (none: it never expires). */
function expiryInBody(body: string): number {
  const expires = (JSON.parse(body) as { payload?: { expires_at?: unknown } }).payload?.expires_at;
  const ms = typeof expires === 'string' ? Date.parse(expires) : Number.NaN;
  return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
}

function refusedUnknown(): Refused {
  return {
    kind: 'refused',
    reason: 'unknown',
    message: 'this payment token is not valid here: it was never issued by this service. Get one at /checkout.',
  };
}
