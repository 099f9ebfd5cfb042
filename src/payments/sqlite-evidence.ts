// The SQLite ledger's evidence, in files of its own beside the ledger file: one per week of expiry
// (`ledger-evidence-2026-11-30.sqlite` holds the evidence of the certificates expiring from Monday 2026-11-30
// 00:00 UTC to the next Monday), and `ledger-evidence-no-expiry.sqlite` for certificates without an expiry (from
// ledgers older than migration 2). Once a week's every certificate has expired its file is deleted whole. Deleting
// its rows instead, or dropping their table, makes SQLite walk each blob's chain of overflow pages to free them,
// cold pages by then: about 0.5 ms a row at a million certificates, a fifth of the appends' time (issue 38).
//
// Why a week. Storage is freed at most a week after expiry: at 10,000 certificates a day that is at most 0.6 GiB
// of evidence kept beyond the 7.3 GiB of the valid ones (docs/operations.md), where a month would keep up to 2.4
// GiB more; the default 90-day lifetime spreads over 14 files, where a day would make 91. DVS_CERTIFICATE_LIFETIME
// has no upper bound, so the files open at once are bounded apart from the period (OPEN_FILES).
//
// Why connections of their own, not ATTACH. The evidence must be on disk before its certificate commits (below),
// and a transaction over attached WAL files commits them one after the other in the order of attachment, the
// ledger file first (SQLite's vdbeCommit): the wrong order, so the evidence would need a transaction of its own
// anyway. And better-sqlite3 12.11.1 builds SQLite with SQLITE_MAX_ATTACHED=10, one taken by the log's tree, which
// a long lifetime's weeks outnumber; DETACH is refused inside a transaction.
//
// Commit order, so that a crash leaves at worst an orphan row, never a certificate whose stored evidence is
// missing: (1) the evidence is written in its week file's own transaction, synced (synchronous=FULL: its WAL is
// on disk before the commit returns, so not even a power cut can keep the certificate and lose it; with NORMAL
// the OS may write the ledger's WAL out first); (2) then the ledger file's transaction stores the certificate. A
// crash or a lost reservation between the two leaves a row no certificate names: never served (readers start
// from the certificate's row), deleted with its file. The sync costs about 0.6 ms a certificate on a virtual disk
// (the ledger bench's appends: 1,700 a second before, 820 with it, 1,650 with NORMAL), little beside the seconds
// a validation probes for.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { privateFile } from '../lib/private-files.ts';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05, the first Monday of the epoch: weeks start on Mondays at 00:00 UTC, as ISO weeks do. */
const FIRST_MONDAY_MS = 4 * DAY_MS;
/**
 * Week files kept open, the least recently used closed first. New certificates all expire one lifetime after
 * issue, so writes keep one or two weeks open; a read of an older week reopens its file (a fraction of a ms).
 */
const OPEN_FILES = 4;
/** Each file's page cache: rows are written once and read rarely, so a little for the b-tree's inner pages. */
const CACHE_KIB = 1024;
/** Rows per transaction when moving a ledger's evidence into the files, so no WAL grows with the whole table. */
const MOVE_BATCH = 1_000;

/** The start of the week holding `expiresAt` (ms since the epoch); null, the certificates without an expiry. */
export type Week = number | null;

export const weekOf = (expiresAt: number | null): Week =>
  expiresAt === null ? null : FIRST_MONDAY_MS + Math.floor((expiresAt - FIRST_MONDAY_MS) / WEEK_MS) * WEEK_MS;

const weekName = (week: Week): string => (week === null ? 'no-expiry' : new Date(week).toISOString().slice(0, 10));
const stemOf = (ledgerFile: string): string => `${ledgerFile.replace(/\.sqlite$/, '')}-evidence-`;

/** The file of a week's evidence beside a ledger file (`ledger.sqlite` -> `ledger-evidence-2026-11-30.sqlite`). */
export const evidenceFileOf = (ledgerFile: string, week: Week): string =>
  `${stemOf(ledgerFile)}${weekName(week)}.sqlite`;

interface WeekFile {
  db: Database.Database;
  insert: Database.Statement<[string, Buffer]>;
  read: Database.Statement<[string], Buffer>;
  count: Database.Statement<[], number>;
}

function weekFile(db: Database.Database): WeekFile {
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = FULL');
  db.pragma(`cache_size = -${CACHE_KIB}`);
  db.exec(`CREATE TABLE IF NOT EXISTS certificate_evidence (
    certificate_id  TEXT PRIMARY KEY,
    evidence        BLOB NOT NULL
  )`);
  return {
    db,
    // REPLACE: a commit tried again after a crash or a lost reservation finds its orphan row.
    insert: db.prepare('INSERT OR REPLACE INTO certificate_evidence (certificate_id, evidence) VALUES (?, ?)'),
    read: db.prepare<[string], Buffer>('SELECT evidence FROM certificate_evidence WHERE certificate_id = ?').pluck(),
    // Over the primary key's index, a few hundred pages for a week's rows, not their blobs.
    count: db.prepare<[], number>('SELECT count(*) FROM certificate_evidence').pluck(),
  };
}

/** Where the week files are: on disk beside the ledger file, or in memory beside an in-memory ledger. */
interface Shelf {
  /** The week's file, opened, or created when it has none. */
  file(week: Week): WeekFile;
  /** The week's file if it has one. */
  existing(week: Week): WeekFile | null;
  /** The weeks that have a file, earliest first (not the file without expiry, which is never deleted). */
  weeks(): number[];
  /** Closes the week's file and deletes it; returns how many rows it held. */
  remove(week: number): number;
  close(): void;
}

function diskShelf(ledgerFile: string): Shelf {
  const dir = path.dirname(ledgerFile);
  const stem = path.basename(stemOf(ledgerFile));
  // In use order, the most recent last.
  const open = new Map<Week, WeekFile>();
  const closeFile = (week: Week) => {
    open.get(week)?.db.close();
    open.delete(week);
  };
  const opened = (week: Week): WeekFile => {
    const file = weekFile(new Database(evidenceFileOf(ledgerFile, week), { fileMustExist: true }));
    open.set(week, file);
    if (open.size > OPEN_FILES) closeFile(open.keys().next().value as Week);
    return file;
  };
  const used = (week: Week): WeekFile | undefined => {
    const file = open.get(week);
    if (file) {
      open.delete(week);
      open.set(week, file);
    }
    return file;
  };
  return {
    file(week) {
      const found = used(week);
      if (found) return found;
      // Private like the ledger (src/lib/private-files.ts); SQLite gives the -wal and -shm the file's mode.
      privateFile(evidenceFileOf(ledgerFile, week));
      return opened(week);
    },
    existing: (week) => used(week) ?? (existsSync(evidenceFileOf(ledgerFile, week)) ? opened(week) : null),
    weeks: () =>
      readdirSync(dir)
        .filter((name) => name.startsWith(stem) && name.endsWith('.sqlite'))
        .map((name) => name.slice(stem.length, -'.sqlite'.length))
        .filter((day) => /^\d{4}-\d{2}-\d{2}$/.test(day))
        .map((day) => Date.parse(`${day}T00:00:00Z`))
        .sort((a, b) => a - b),
    remove(week) {
      const file = evidenceFileOf(ledgerFile, week);
      // Counted on a connection of its own unless open already, so the weeks in use keep theirs.
      const counted = open.get(week) ?? weekFile(new Database(file, { fileMustExist: true }));
      const rows = counted.count.get()!;
      counted.db.close();
      open.delete(week);
      // The file itself last: while it exists the week is still listed, so a crash here is finished next time.
      for (const part of [`${file}-wal`, `${file}-shm`, file]) rmSync(part, { force: true });
      return rows;
    },
    close() {
      for (const week of [...open.keys()]) closeFile(week);
    },
  };
}

/** An in-memory ledger's weeks: a database each, kept until the week is pruned (closing one would lose it). */
function memoryShelf(): Shelf {
  const held = new Map<Week, WeekFile>();
  return {
    file(week) {
      const found = held.get(week);
      if (found) return found;
      const made = weekFile(new Database(':memory:'));
      held.set(week, made);
      return made;
    },
    existing: (week) => held.get(week) ?? null,
    weeks: () => [...held.keys()].filter((week) => week !== null).sort((a, b) => a - b),
    remove(week) {
      const file = held.get(week)!;
      const rows = file.count.get()!;
      file.db.close();
      held.delete(week);
      return rows;
    },
    close() {
      for (const file of held.values()) file.db.close();
      held.clear();
    },
  };
}

export interface EvidenceRow {
  certificateId: string;
  expiresAt: number | null;
  evidence: Buffer;
}

export interface EvidenceFiles {
  /** Writes one certificate's evidence, synced, before the ledger file's transaction stores the certificate. */
  store(row: EvidenceRow): void;
  /** Writes many, in expiry order, a batch per transaction (moveLedgerEvidence). */
  storeAll(rows: Iterable<EvidenceRow>): void;
  /** The stored evidence of a certificate, looked up in the week of its expiry (the certificate's row gives it). */
  read(certificateId: string, expiresAt: number | null): Buffer | null;
  /** Deletes the file of every week that ended by `now`; returns how many certificates' evidence they held. */
  prune(now: number): number;
  close(): void;
}

export function sqliteEvidence(ledgerFile: string): EvidenceFiles {
  const shelf = ledgerFile === ':memory:' ? memoryShelf() : diskShelf(ledgerFile);
  const writeBatch = (week: Week, batch: EvidenceRow[]) => {
    const file = shelf.file(week);
    file.db.transaction(() => {
      for (const r of batch) file.insert.run(r.certificateId, r.evidence);
    })();
  };
  return {
    store(row) {
      shelf.file(weekOf(row.expiresAt)).insert.run(row.certificateId, row.evidence);
    },
    storeAll(rows) {
      let batch: EvidenceRow[] = [];
      let week: Week = null;
      for (const row of rows) {
        const next = weekOf(row.expiresAt);
        if (batch.length === MOVE_BATCH || (batch.length > 0 && next !== week)) {
          writeBatch(week, batch);
          batch = [];
        }
        week = next;
        batch.push(row);
      }
      if (batch.length > 0) writeBatch(week, batch);
    },
    read: (certificateId, expiresAt) => shelf.existing(weekOf(expiresAt))?.read.get(certificateId) ?? null,
    // A week ends when the next begins: every certificate in it expired (expires_at <= now) by then.
    prune: (now) =>
      shelf
        .weeks()
        .filter((week) => week + WEEK_MS <= now)
        .reduce((pruned, week) => pruned + shelf.remove(week), 0),
    close: () => shelf.close(),
  };
}

/** The ledger file's certificate_evidence rows (migration 014's table), in the order of its index: by expiry. */
function* ledgerEvidence(db: Database.Database): Generator<EvidenceRow> {
  const rows = db.prepare<[], { certificate_id: string; expires_at: number | null; evidence: Buffer }>(
    'SELECT certificate_id, expires_at, evidence FROM certificate_evidence ORDER BY expires_at',
  );
  for (const r of rows.iterate())
    yield { certificateId: r.certificate_id, expiresAt: r.expires_at, evidence: r.evidence };
}

/** Migration 015: copies those rows into the files, before the migration drops the table in the ledger file. */
export const moveLedgerEvidence = (db: Database.Database, files: EvidenceFiles): void =>
  files.storeAll(ledgerEvidence(db));
