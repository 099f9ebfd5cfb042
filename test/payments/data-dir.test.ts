// The data dir and everything the service writes in it are private to the service's user: the dir 0700, the
// ledger, its log's tree file, its evidence files and their -wal/-shm files, keys and TLS material 0600, also when an
// earlier version left them readable.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.ts';
import { openLedger, SQLITE_FILE } from '../../src/payments/open-ledger.ts';
import { evidenceFileOf, weekOf } from '../../src/payments/sqlite-evidence.ts';
import { treeFileOf } from '../../src/payments/sqlite-log.ts';
import { startTestService } from '../server/harness.ts';

const mode = (file: string) => statSync(file).mode & 0o777;
const LEDGER_FILES = [SQLITE_FILE, treeFileOf(SQLITE_FILE)].flatMap((f) => ['', '-wal', '-shm'].map((s) => f + s));
let parent: string;

afterEach(() => rmSync(parent, { recursive: true, force: true }));

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

async function useLedger(dataDir: string): Promise<void> {
  const ledger = await openLedger(loadConfig({ DVS_DATA_DIR: dataDir }));
  try {
    // A certificate with evidence, so every file and its -wal and -shm exist while the ledger is open.
    const { token } = (await ledger.issue({ source: 'test' }))[0]!;
    const held = await ledger.reserve(token, 'private.test');
    if (held.kind !== 'reserved') throw new Error(`not reserved: ${held.kind}`);
    const expiresAt = Date.now() + 86_400_000;
    const id = `dvc_private_${expiresAt}`;
    await ledger.commit(token, held.reservationId, {
      id,
      domain: 'private.test',
      body: '{}',
      expiresAt,
      evidence: Buffer.from('e'),
    });
    const evidence = path.basename(evidenceFileOf(SQLITE_FILE, weekOf(expiresAt)));
    for (const name of [...LEDGER_FILES, ...['', '-wal', '-shm'].map((s) => evidence + s)])
      expect(mode(path.join(dataDir, name)), name).toBe(0o600);
  } finally {
    await ledger.close();
  }
}

describe('the data dir', () => {
  it('is created 0700 with the ledger and its -wal/-shm files 0600, whatever the umask', async () => {
    parent = mkdtempSync(path.join(os.tmpdir(), 'dvs-private-'));
    const dataDir = path.join(parent, 'data');
    const umask = process.umask(0o022);
    try {
      await useLedger(dataDir);
    } finally {
      process.umask(umask);
    }
    expect(mode(dataDir)).toBe(0o700);
  });

  it('tightens a data dir and ledger an earlier version left readable by others', async () => {
    parent = mkdtempSync(path.join(os.tmpdir(), 'dvs-private-'));
    const dataDir = path.join(parent, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    await useLedger(dataDir);
    for (const name of LEDGER_FILES) {
      const file = path.join(dataDir, name);
      writeFileSync(file, '', { flag: 'a' });
      chmodSync(file, 0o644);
    }
    chmodSync(dataDir, 0o755);
    await useLedger(dataDir);
    expect(mode(dataDir)).toBe(0o700);
  });

  it('holds only 0600 files once the service has started with its real payments side', async () => {
    const svc = await startTestService({}, { realPayments: true });
    parent = mkdtempSync(path.join(os.tmpdir(), 'dvs-private-'));
    try {
      await svc.call('GET', '/healthz');
      expect(mode(svc.dataDir)).toBe(0o700);
      const files = filesUnder(svc.dataDir);
      expect(files.map((f) => path.basename(f))).toEqual(
        expect.arrayContaining([SQLITE_FILE, 'signing-key.json', 'localhost-cert.pem', 'localhost-key.pem']),
      );
      for (const f of files) expect(mode(f), f).toBe(0o600);
    } finally {
      await svc.stop();
    }
  });
});
