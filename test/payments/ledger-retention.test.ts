// The ledger's retention beside the service (issue 38): evidence after expiry and reports after their retention
// leave in batches until one comes back short, one run at a time; the certificate itself stays whole.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startLedgerRetention } from '../../src/payments/ledger-retention.ts';
import { Ledger } from '../../src/payments/ledger.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';
import { commitWithNewToken } from './log-fixtures.ts';

let dir: string;
let ledger: Ledger;
let clock: number;
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined };
const DAY = 86_400_000;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-retention-'));
  clock = Date.parse('2026-11-29T00:00:00Z');
  ledger = new Ledger(openSqliteStore(path.join(dir, 'ledger.sqlite')), {
    mode: 'test',
    tokenTtlSeconds: 3600,
    reservationLeaseSeconds: 60,
    now: () => clock,
  });
});

afterEach(async () => {
  await ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

async function certify(n: number, expiresAt: number): Promise<string> {
  const id = `dvc_retention_${n}`;
  await commitWithNewToken(ledger, {
    id,
    domain: `d${n}.test`,
    body: JSON.stringify({ payload: { id }, jws: 'sig' }),
    expiresAt,
    evidence: Buffer.from([n]),
    report: Buffer.from([n, n]),
  });
  return id;
}

it('prunes expired evidence and old reports in batches, and nothing else', async () => {
  const old = [];
  for (let n = 0; n < 7; n++) old.push(await certify(n, clock + DAY + n));
  clock += 20 * DAY;
  const recent = await certify(99, clock + 90 * DAY);
  clock += 60_000;
  const retention = startLedgerRetention(ledger, {
    everyMs: 3_600_000,
    batch: 3,
    reportRetentionSeconds: 10 * 86_400,
    log: quiet,
  });
  try {
    const [first, second] = await Promise.all([retention.runOnce(), retention.runOnce()]);
    expect(first).toEqual({ evidence: 7, reports: 7 });
    // A second call while a run is going joins it rather than running beside it.
    expect(second).toBe(first);
    for (const id of old) {
      expect(await ledger.evidence(id, 0)).toBeNull();
      const kept = (await ledger.certificate(id))!;
      expect(kept.report).toBeUndefined();
      expect(kept.body).toBe(JSON.stringify({ payload: { id }, jws: 'sig' }));
    }
    expect(await ledger.evidence(recent, clock)).toEqual(Buffer.from([99]));
    expect((await ledger.certificate(recent))!.report).toEqual(Buffer.from([99, 99]));
    expect(await retention.runOnce()).toEqual({ evidence: 0, reports: 0 });
  } finally {
    await retention.stop();
  }
});

it('keeps every report when no retention is set', async () => {
  const id = await certify(1, clock + DAY);
  clock += 400 * DAY;
  const retention = startLedgerRetention(ledger, {
    everyMs: 3_600_000,
    batch: 3,
    reportRetentionSeconds: null,
    log: quiet,
  });
  try {
    expect(await retention.runOnce()).toEqual({ evidence: 1, reports: 0 });
    expect((await ledger.certificate(id))!.report).toEqual(Buffer.from([1, 1]));
  } finally {
    await retention.stop();
  }
});
