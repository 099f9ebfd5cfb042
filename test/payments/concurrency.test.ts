// Issue 5, "Checked by": 50 concurrent Full Validations with one token, over REST and MCP mixed, run exactly
// one validation and give everyone the same certificate bytes; on SQLite, on PostgreSQL, and with two service
// processes sharing one PostgreSQL.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE } from '../../src/payments/open-ledger.ts';
import type { Certificate } from '../../src/signing/payload.ts';
import { freshSchema, postgresReachable } from './postgres.ts';
import {
  issueOne,
  serviceEnv,
  startChild,
  startInProcess,
  startPaymentsWorld,
  tempDir,
  type Outcome,
  type ServiceClient,
} from './service.ts';

const REQUESTS = 50;
/** The PostgreSQL migrations the ledger ships, by number (src/payments/migrations/postgres/NNN-*.sql). */
const MIGRATIONS = readdirSync(path.join(import.meta.dirname, '../../src/payments/migrations/postgres'))
  .map((f) => Number(f.slice(0, 3)))
  .sort((a, b) => a - b);
const CERTIFIED = 'full validation certified';

/** Fires all requests at once, alternating REST and MCP (and clients, when given several). */
function stampede(clients: ServiceClient[], token: string): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: REQUESTS }, (_, i) => {
      const client = clients[Math.floor(i / 2) % clients.length]!;
      return i % 2 === 0 ? client.rest('good.test', token) : client.mcp('good.test', token, i);
    }),
  );
}

function expectOneCertificate(outcomes: Outcome[]): string {
  expect(outcomes.filter((o) => !o.ok)).toEqual([]);
  expect(outcomes.filter((o) => o.surface === 'rest')).toHaveLength(REQUESTS / 2);
  const certificates = new Set(outcomes.map((o) => o.certificate));
  expect(certificates.size).toBe(1);
  const certificate = [...certificates][0]!;
  const parsed = JSON.parse(certificate) as Certificate;
  expect(parsed.payload.domain).toBe('good.test');
  // The answer is the log's leaf itself; everyone got the same inclusion proof beside it, against the head of size 1.
  expect(parsed.log).toBeUndefined();
  const proofs = new Set(outcomes.map((o) => o.proof));
  expect(proofs.size).toBe(1);
  expect(JSON.parse([...proofs][0]!)).toMatchObject({ certificate_id: parsed.payload.id, leaf_index: 0, tree_size: 1 });
  return certificate;
}

let world: Awaited<ReturnType<typeof startPaymentsWorld>>;
beforeAll(async () => {
  world = await startPaymentsWorld();
});
afterAll(() => world.cleanup());

describe('50 concurrent full validations with one token on SQLite', () => {
  it('run one validation and give one certificate, the same bytes to all, fetchable again', async () => {
    const dataDir = tempDir('dvs-concurrency-sqlite-');
    const service = await startInProcess(world, dataDir);
    try {
      const token = await issueOne(service.payments.ledger);
      const certificate = expectOneCertificate(await stampede([service.client], token));
      expect(service.log.count(CERTIFIED)).toBe(1);
      const db = new Database(path.join(dataDir, SQLITE_FILE), { readonly: true });
      expect(db.prepare('SELECT COUNT(*) FROM certificates').pluck().get()).toBe(1);
      db.close();
      const id = (JSON.parse(certificate) as Certificate).payload.id;
      const again = await service.client.call('GET', `/api/certificates/${id}`);
      expect(again).toEqual({ status: 200, text: certificate });
      expect(await service.payments.ledger.status(token)).toMatchObject({
        state: 'redeemed',
        domain: 'good.test',
        certificateId: id,
      });
      const other = await service.client.rest('slow-payments.test', token);
      expect(other.status).toBe(402);
      expect(other.error).toContain('good.test');
    } finally {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

const pgUp = await postgresReachable();
if (!pgUp) console.log('PostgreSQL not reachable: skipped (concurrency on PostgreSQL and two service processes)');

describe.skipIf(!pgUp)('50 concurrent full validations with one token on PostgreSQL', () => {
  it('run one validation and give one certificate, the same bytes to all', async () => {
    const schema = await freshSchema();
    const dataDir = tempDir('dvs-concurrency-pg-');
    const service = await startInProcess(world, dataDir, { DVS_DATABASE_URL: schema.url });
    try {
      expect(service.payments.ledger.backend).toBe('postgres');
      const token = await issueOne(service.payments.ledger);
      const certificate = expectOneCertificate(await stampede([service.client], token));
      expect(service.log.count(CERTIFIED)).toBe(1);
      const stored = await schema.query<{ id: string; body: string }>('SELECT id, body FROM certificates');
      expect(stored).toEqual([{ id: (JSON.parse(certificate) as Certificate).payload.id, body: certificate }]);
    } finally {
      await service.stop();
      await schema.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('two service processes sharing one PostgreSQL run one validation between them', async () => {
    const schema = await freshSchema();
    const ownDir = tempDir('dvs-two-proc-a-');
    const childDir = tempDir('dvs-two-proc-b-');
    const env = { DVS_DATABASE_URL: schema.url };
    // Both start at once: the schema migration must be taken by one and waited for by the other.
    const [service, child] = await Promise.all([
      startInProcess(world, ownDir, env),
      startChild(serviceEnv(world, childDir, env), childDir),
    ]);
    try {
      const token = await issueOne(service.payments.ledger);
      const certificate = expectOneCertificate(await stampede([service.client, child.client], token));
      const certifiedByChild = child
        .logText()
        .split('\n')
        .filter((l) => l.includes(`"msg":"${CERTIFIED}"`)).length;
      expect(service.log.count(CERTIFIED) + certifiedByChild).toBe(1);
      const stored = await schema.query<{ body: string }>('SELECT body FROM certificates');
      expect(stored).toEqual([{ body: certificate }]);
      // Both processes migrated the one database, each migration exactly once.
      expect(await schema.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual(
        MIGRATIONS.map((version) => ({ version })),
      );
    } finally {
      await Promise.all([service.stop(), child.stop()]);
      await schema.drop();
      rmSync(ownDir, { recursive: true, force: true });
      rmSync(childDir, { recursive: true, force: true });
    }
  });
});
