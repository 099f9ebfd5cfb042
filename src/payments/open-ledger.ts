// Chooses the ledger backend from the configuration: PostgreSQL when DVS_DATABASE_URL is set (several service
// processes share it), otherwise SQLite in the data dir.
import path from 'node:path';
import type { Config } from '../lib/config.ts';
import { privateDir, privateFile, tightenExisting } from '../lib/private-files.ts';
import { Ledger } from './ledger.ts';
import { treeFileOf } from './sqlite-log.ts';
import { openSqliteStore } from './sqlite-store.ts';
import type { TokenMode } from './tokens.ts';

export const SQLITE_FILE = 'ledger.sqlite';

/** Live tokens once a real processor takes money; test tokens from the embedded checkout. */
const tokenMode = (config: Config): TokenMode => (config.payments.stripeSecretKey ? 'live' : 'test');

export async function openLedger(config: Config, opts: { now?: () => number } = {}): Promise<Ledger> {
  let store;
  if (config.databaseUrl) {
    // The PostgreSQL driver is imported only when the ledger is there.
    const { openPostgresStore } = await import('./postgres-store.ts');
    store = await openPostgresStore(config.databaseUrl);
  } else {
    privateDir(config.dataDir);
    const file = path.join(config.dataDir, SQLITE_FILE);
    for (const f of [file, treeFileOf(file)]) {
      privateFile(f);
      tightenExisting([`${f}-wal`, `${f}-shm`]);
    }
    store = openSqliteStore(file);
  }
  return new Ledger(store, {
    mode: tokenMode(config),
    tokenTtlSeconds: config.payments.tokenTtlSeconds,
    reservationLeaseSeconds: config.payments.reservationLeaseSeconds,
    now: opts.now,
  });
}
