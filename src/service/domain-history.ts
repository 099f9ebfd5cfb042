// A domain's history: every Full Validation the ledger keeps for it, newest first, each with where its
// certificate stands now and the rules whose outcome changed since the validation before it. A page reads
// one row more than it returns: that row is the earlier validation the page's last entry is compared with, and
// tells whether another page follows.
import { gunzipSync } from 'node:zlib';
import type { CertificateHistory, HistoryCursor, HistoryRow } from '../payments/history-store.ts';
import type { CertificateRecord } from '../payments/gate.ts';
import { changedRules, type Judgement, type RuleChange } from '../lib/report-diff.ts';
import type { Certificate, CertificatePayload } from '../signing/payload.ts';
import { statusOf, type CertificateStatus } from './certificates.ts';

export interface HistoryEntry {
  certificate_id: string;
  observed_at: string;
  issued_at: string;
  verdict: CertificatePayload['verdict'];
  score: number;
  ruleset_version: string;
  status: CertificateStatus;
  /** The rules whose outcome changed since the validation before this one; null for the first one kept. */
  changes: RuleChange[] | null;
}

export interface HistoryPage {
  domain: string;
  entries: HistoryEntry[];
  /** The cursor of the next (older) page, or null when this page reaches the first validation. */
  next: string | null;
}

export const HISTORY_DEFAULT_LIMIT = 30;
export const HISTORY_MAX_LIMIT = 100;

const CURSOR = /^(\d{1,15})\.(dvc_[0-9a-f]{32})$/;

export class HistoryCursorError extends Error {
  override name = 'HistoryCursorError';
}

/** The cursor is the last entry's issue time (ms) and id: a position in the ledger's order, not an offset. */
export function parseCursor(text: string): HistoryCursor {
  const m = CURSOR.exec(text);
  if (!m) throw new HistoryCursorError('before must be the next cursor of an earlier page of this history');
  return { createdAt: Number(m[1]), id: m[2]! };
}

const cursorOf = (row: HistoryRow): string => `${row.createdAt}.${row.id}`;

/** Later in the ledger's order (issue time, then id), as the superseding rule reads it. */
const isLater = (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }) =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

/** What the report page shows: the latest page of the history and what changed in the last run. */
export interface HistoryOverview {
  /** Newest first. */
  entries: HistoryEntry[];
  /** The last run against the one before, as their reports give them; null with fewer than two runs. */
  lastChanges: RuleChange[] | null;
}

export class DomainHistory {
  constructor(
    private readonly source: CertificateHistory,
    private readonly now: () => number = Date.now,
  ) {}

  async page(domain: string, opts: { before?: string; limit?: number } = {}): Promise<HistoryPage> {
    const limit = Math.min(Math.max(opts.limit ?? HISTORY_DEFAULT_LIMIT, 1), HISTORY_MAX_LIMIT);
    const before = opts.before === undefined ? null : parseCursor(opts.before);
    const [rows, latest] = await Promise.all([
      this.source.history(domain, before, limit + 1),
      this.source.latest(domain),
    ]);
    const payloads = rows.map((r) => (JSON.parse(r.body) as Certificate).payload);
    const now = this.now();
    const shown = rows.slice(0, limit);
    const entries = shown.map((row, i): HistoryEntry => {
      const payload = payloads[i]!;
      const older = payloads[i + 1];
      const record: CertificateRecord = {
        id: row.id,
        domain,
        body: row.body,
        issuedAt: row.createdAt,
        expiresAt: row.expiresAt ?? Date.parse(payload.expires_at),
        revokedAt: row.revokedAt,
        revocationReason: row.revocationReason,
        revocationReport: row.revocationReport,
        supersededBy: latest && isLater({ createdAt: latest.issuedAt, id: latest.id }, row) ? latest.id : null,
      };
      return {
        certificate_id: row.id,
        observed_at: payload.observed_at,
        issued_at: payload.issued_at,
        verdict: payload.verdict,
        score: payload.score,
        ruleset_version: payload.ruleset.version,
        status: statusOf(record, now),
        changes: older ? changedRules(older, payload) : null,
      };
    });
    const next = rows.length > limit ? cursorOf(shown[shown.length - 1]!) : null;
    return { domain, entries, next };
  }

  async overview(domain: string): Promise<HistoryOverview> {
    const { entries } = await this.page(domain, { limit: HISTORY_MAX_LIMIT });
    if (entries.length < 2) return { entries, lastChanges: null };
    const [then, now] = await Promise.all([this.judgement(entries[1]!), this.judgement(entries[0]!)]);
    return { entries, lastChanges: changedRules(then, now) };
  }

  /** The run's report, which keeps what every rule read; the certificate's payload once the report is pruned. */
  private async judgement(entry: HistoryEntry): Promise<Judgement> {
    const stored = await this.source.certificate(entry.certificate_id);
    if (!stored) throw new Error(`the ledger lost certificate ${entry.certificate_id} while reading its history`);
    if (stored.report) return JSON.parse(gunzipSync(stored.report).toString('utf8')) as Judgement;
    return (JSON.parse(stored.body) as Certificate).payload;
  }
}
