// The evidence pruning that runs beside the service (issue 38): batches until one comes back short, one run at
// a time, and stopping waits for the batch in flight.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startEvidencePruning } from '../../src/payments/evidence-pruning.ts';
import { Ledger } from '../../src/payments/ledger.ts';
import { openSqliteStore } from '../../src/payments/sqlite-store.ts';

let dir: string;
let ledger: Ledger;
let clock: number;
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined };

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-prune-'));
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
  const { token } = (await ledger.issue({ source: 'test' }))[0]!;
  const r = await ledger.reserve(token, `d${n}.test`);
  if (r.kind !== 'reserved') throw new Error(`not reserved: ${r.kind}`);
  const id = `dvc_prune_${n}`;
  await ledger.commit(token, r.reservationId, {
    id,
    domain: `d${n}.test`,
    body: JSON.stringify({ payload: { id }, jws: 'sig' }),
    expiresAt,
    evidence: Buffer.from([n]),
  });
  return id;
}

it('prunes every expired evidence in batches of the given size, and none that is still valid', async () => {
  const expired = [];
  for (let n = 0; n < 7; n++) expired.push(await certify(n, clock + 1000 + n));
  const valid = await certify(99, clock + 86_400_000);
  clock += 60_000;
  const pruning = startEvidencePruning(ledger, { everyMs: 3_600_000, batch: 3, log: quiet });
  try {
    const [first, second] = await Promise.all([pruning.runOnce(), pruning.runOnce()]);
    expect(first).toBe(7);
    // A second call while a run is going joins it rather than running beside it.
    expect(second).toBe(7);
    for (const id of expired) expect(await ledger.evidence(id, 0)).toBeNull();
    expect(await ledger.evidence(valid, clock)).toEqual(Buffer.from([99]));
    expect(await pruning.runOnce()).toBe(0);
  } finally {
    await pruning.stop();
  }
});
