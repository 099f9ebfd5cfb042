// The SQLite ledger keeps evidence in files per week of expiry beside the ledger file (src/payments/sqlite-evidence.ts):
// read only while the certificate is valid, a file deleted whole once its week has ended, the evidence committed
// before its certificate (a crash leaves at worst an orphan row), and the rows of older ledgers moved into the
// files by migration 015.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger, ReservationLostError } from '../../src/payments/ledger.ts';
import { evidenceFileOf, sqliteEvidence, weekOf } from '../../src/payments/sqlite-evidence.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';
import { certifyWith } from './log-fixtures.ts';
import { ledgerBefore } from './old-ledger.ts';

const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** A Monday: one week of expiry ends and the next begins. */
const MONDAY = Date.parse('2026-11-30T00:00:00Z');

let dir: string;
let file: string;
let clock: number;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-evidence-'));
  file = path.join(dir, 'ledger.sqlite');
  clock = MONDAY - 30 * DAY;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = (ledgerFile = file) =>
  new Ledger(openSqliteStore(ledgerFile), {
    mode: 'test',
    tokenTtlSeconds: 3600,
    reservationLeaseSeconds: 60,
    now: () => clock,
  });

/** Commits the certificate `id` expiring at `expiresAt` (null: never) with `evidence`; returns its token. */
const certify = (ledger: Ledger, id: string, expiresAt: number | null, evidence: Buffer): Promise<string> =>
  certifyWith(ledger, id, { evidence, ...(expiresAt === null ? {} : { expiresAt }) });

/** The evidence files beside the ledger file, by name. */
const evidenceFiles = () =>
  readdirSync(dir)
    .filter((f) => f.includes('-evidence-') && f.endsWith('.sqlite'))
    .sort();

/** How many descriptors this process holds open on evidence files of the test's folder (Linux). */
const openEvidenceFiles = () =>
  readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(path.join(dir, 'ledger-evidence-'))).length;

describe('the SQLite evidence files', () => {
  it('keep each week of expiry in a file of its own beside the ledger, served while the certificate is valid', async () => {
    const ledger = open();
    try {
      await certify(ledger, 'dvc_sunday', MONDAY - 1, Buffer.from('sunday'));
      await certify(ledger, 'dvc_monday', MONDAY, Buffer.from('monday'));
      expect(evidenceFiles()).toEqual(['ledger-evidence-2026-11-23.sqlite', 'ledger-evidence-2026-11-30.sqlite']);
      expect(weekOf(MONDAY - 1)).toBe(MONDAY - WEEK);
      expect(weekOf(MONDAY)).toBe(MONDAY);
      expect(await ledger.evidence('dvc_sunday', MONDAY - 2)).toEqual(Buffer.from('sunday'));
      // Expired at its expires_at, with its file still there: never served again.
      expect(await ledger.evidence('dvc_sunday', MONDAY - 1)).toBeNull();
      expect(await ledger.evidence('dvc_monday', MONDAY - 1)).toEqual(Buffer.from('monday'));
      expect(await ledger.evidence('dvc_monday', MONDAY)).toBeNull();
      expect(await ledger.evidence('dvc_absent', 0)).toBeNull();
    } finally {
      await ledger.close();
    }
  });

  it('are deleted whole once their week has ended, not before; evidence without expiry stays', async () => {
    const ledger = open();
    try {
      await certify(ledger, 'dvc_a', MONDAY - WEEK, Buffer.from('a'));
      await certify(ledger, 'dvc_b', MONDAY - 1, Buffer.from('b'));
      await certify(ledger, 'dvc_c', MONDAY + DAY, Buffer.from('c'));
      await certify(ledger, 'dvc_ageless', null, Buffer.from('always'));
      clock = MONDAY - 1;
      expect(await ledger.pruneExpiredEvidence(1)).toBe(0);
      expect(await ledger.evidence('dvc_a', 0)).toEqual(Buffer.from('a'));
      clock = MONDAY;
      // Both of the week's certificates, whatever the limit: the file goes whole.
      expect(await ledger.pruneExpiredEvidence(1)).toBe(2);
      expect(await ledger.pruneExpiredEvidence(1)).toBe(0);
      expect(evidenceFiles()).toEqual(['ledger-evidence-2026-11-30.sqlite', 'ledger-evidence-no-expiry.sqlite']);
      expect(await ledger.evidence('dvc_a', 0)).toBeNull();
      expect(await ledger.evidence('dvc_c', 0)).toEqual(Buffer.from('c'));
      clock = MONDAY + 400 * DAY;
      expect(await ledger.pruneExpiredEvidence(500)).toBe(1);
      expect(evidenceFiles()).toEqual(['ledger-evidence-no-expiry.sqlite']);
      expect(await ledger.evidence('dvc_ageless', clock)).toEqual(Buffer.from('always'));
    } finally {
      await ledger.close();
    }
  });

  it('stay few open at once whatever the lifetime, each reopened to be read', async () => {
    const ledger = open();
    try {
      for (let w = 0; w < 12; w++) await certify(ledger, `dvc_w${w}`, MONDAY + w * WEEK, Buffer.from([w]));
      expect(evidenceFiles()).toHaveLength(12);
      // At most four files, each with its -wal and -shm.
      expect(openEvidenceFiles()).toBeGreaterThanOrEqual(4);
      expect(openEvidenceFiles()).toBeLessThanOrEqual(4 * 3);
      for (let w = 0; w < 12; w++) expect(await ledger.evidence(`dvc_w${w}`, clock)).toEqual(Buffer.from([w]));
      expect(openEvidenceFiles()).toBeLessThanOrEqual(4 * 3);
    } finally {
      await ledger.close();
    }
    expect(openEvidenceFiles()).toBe(0);
  });

  it('are not files at all beside an in-memory ledger', async () => {
    const ledger = open(':memory:');
    try {
      await certify(ledger, 'dvc_memory', MONDAY - 1, Buffer.from('kept'));
      await certify(ledger, 'dvc_later', MONDAY + DAY, Buffer.from('later'));
      expect(await ledger.evidence('dvc_memory', clock)).toEqual(Buffer.from('kept'));
      clock = MONDAY;
      expect(await ledger.pruneExpiredEvidence(10)).toBe(1);
      expect(await ledger.evidence('dvc_memory', 0)).toBeNull();
      expect(await ledger.evidence('dvc_later', clock)).toEqual(Buffer.from('later'));
      expect(existsSync(evidenceFileOf(':memory:', weekOf(MONDAY)))).toBe(false);
    } finally {
      await ledger.close();
    }
  });
});

describe('the order of the evidence and its certificate', () => {
  it('stores no certificate whose evidence could not be written', async () => {
    const ledger = open();
    try {
      // A folder where the week's file would be: the evidence cannot be written.
      mkdirSync(evidenceFileOf(file, weekOf(MONDAY)));
      const { token } = (await ledger.issue({ source: 'test' }))[0]!;
      const held = await ledger.reserve(token, 'a.test');
      if (held.kind !== 'reserved') throw new Error(`not reserved: ${held.kind}`);
      const certificate = {
        id: 'dvc_unwritten',
        domain: 'a.test',
        body: '{}',
        expiresAt: MONDAY,
        evidence: Buffer.from('e'),
      };
      await expect(ledger.commit(token, held.reservationId, certificate)).rejects.toThrow();
      expect(await ledger.certificate('dvc_unwritten')).toBeNull();
      expect(await ledger.status(token)).toMatchObject({ state: 'reserved', certificateId: null });
      expect(await ledger.log.logSize()).toBe(0);
    } finally {
      await ledger.close();
    }
  });

  it('leaves an orphan row when the certificate did not commit: never served, deleted with its week', async () => {
    let ledger = open();
    const { token } = (await ledger.issue({ source: 'test' }))[0]!;
    const held = await ledger.reserve(token, 'a.test');
    if (held.kind !== 'reserved') throw new Error(`not reserved: ${held.kind}`);
    const lost = { id: 'dvc_lost', domain: 'a.test', body: '{}', expiresAt: MONDAY - 1, evidence: Buffer.from('x') };
    await expect(ledger.commit(token, 'another-reservation', lost)).rejects.toThrow(ReservationLostError);
    await certify(ledger, 'dvc_crashed', MONDAY - 2, Buffer.from('y'));
    await ledger.close();
    // As a crash between the two commits leaves it: the row in the week's file, no certificate in the ledger file.
    const raw = new Database(file);
    raw.exec(
      "DELETE FROM log_entries WHERE certificate_id = 'dvc_crashed'; DELETE FROM certificates WHERE id = 'dvc_crashed'",
    );
    raw.close();
    ledger = open();
    try {
      const week = new Database(evidenceFileOf(file, weekOf(MONDAY - 1)), { readonly: true });
      expect(week.prepare('SELECT certificate_id FROM certificate_evidence ORDER BY 1').pluck().all()).toEqual([
        'dvc_crashed',
        'dvc_lost',
      ]);
      week.close();
      expect(await ledger.evidence('dvc_lost', 0)).toBeNull();
      expect(await ledger.evidence('dvc_crashed', 0)).toBeNull();
      // The commit tried again finds its row and replaces it.
      await ledger.commit(token, held.reservationId, { ...lost, evidence: Buffer.from('z') });
      expect(await ledger.evidence('dvc_lost', clock)).toEqual(Buffer.from('z'));
      clock = MONDAY;
      expect(await ledger.pruneExpiredEvidence(500)).toBe(2);
      expect(evidenceFiles()).toEqual([]);
    } finally {
      await ledger.close();
    }
  });
});

describe('migration 015', () => {
  /** A ledger file as version 14 left it, with `rows` in its certificate_evidence table. */
  function ledgerAt14(rows: { id: string; expiresAt: number | null; evidence: string }[]): void {
    const db = ledgerBefore(file, 15);
    const certificate = db.prepare(
      "INSERT INTO certificates (id, domain, body, created_at, expires_at) VALUES (?, 'a.test', '{}', 0, ?)",
    );
    const evidence = db.prepare(
      'INSERT INTO certificate_evidence (certificate_id, expires_at, evidence) VALUES (?, ?, ?)',
    );
    for (const r of rows) {
      certificate.run(r.id, r.expiresAt);
      evidence.run(r.id, r.expiresAt, Buffer.from(r.evidence));
    }
    db.close();
  }

  const rows = [
    { id: 'dvc_old', expiresAt: MONDAY - WEEK - 1, evidence: 'old' },
    { id: 'dvc_sunday', expiresAt: MONDAY - 1, evidence: 'sunday' },
    { id: 'dvc_saturday', expiresAt: MONDAY - DAY - 1, evidence: 'saturday' },
    { id: 'dvc_monday', expiresAt: MONDAY, evidence: 'monday' },
    { id: 'dvc_ageless', expiresAt: null, evidence: 'always' },
  ];

  it('moves the evidence of the ledger file into the files of its weeks, and drops the table', async () => {
    ledgerAt14(rows);
    const ledger = open();
    try {
      expect(evidenceFiles()).toEqual([
        'ledger-evidence-2026-11-16.sqlite',
        'ledger-evidence-2026-11-23.sqlite',
        'ledger-evidence-2026-11-30.sqlite',
        'ledger-evidence-no-expiry.sqlite',
      ]);
      for (const r of rows) expect(await ledger.evidence(r.id, 0), r.id).toEqual(Buffer.from(r.evidence));
      expect(await ledger.evidence('dvc_sunday', MONDAY - 1)).toBeNull();
      clock = MONDAY;
      expect(await ledger.pruneExpiredEvidence(500)).toBe(3);
      expect(await ledger.evidence('dvc_monday', 0)).toEqual(Buffer.from('monday'));
    } finally {
      await ledger.close();
    }
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'certificate_evidence'").all()).toEqual([]);
    expect(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(15);
    db.close();
  });

  it('copies again over what a crash left in the files before the ledger file committed the move', async () => {
    ledgerAt14(rows);
    // The files as an interrupted move left them: a row copied, another not yet, the table still in the ledger.
    const files = sqliteEvidence(file);
    files.store({ certificateId: 'dvc_sunday', expiresAt: MONDAY - 1, evidence: Buffer.from('sunday') });
    files.close();
    const ledger = open();
    try {
      for (const r of rows) expect(await ledger.evidence(r.id, 0), r.id).toEqual(Buffer.from(r.evidence));
    } finally {
      await ledger.close();
    }
  });
});
