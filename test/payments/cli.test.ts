// `dvs tokens issue | status` against the ledger the configuration names (SQLite here).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/io.ts';
import { run } from '../../src/cli/tokens.ts';
import { loadConfig, type Config } from '../../src/lib/config.ts';
import { openLedger } from '../../src/payments/open-ledger.ts';

async function tokens(config: Config, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    config,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

describe('dvs tokens', () => {
  let dir: string;
  let config: Config;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-tokens-cli-'));
    config = loadConfig({ DVS_DATA_DIR: dir });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('issue prints N tokens, one per line, written to the configured ledger with the asked expiry', async () => {
    const before = Date.now();
    const out = await tokens(config, 'issue', '--count', '3', '--expires', '2d');
    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const t of lines) expect(t).toMatch(/^dvs_test_[A-Za-z0-9_-]{43}$/);
    expect(out.stderr).toContain('3 test-mode token(s) in the sqlite ledger');
    const ledger = await openLedger(config);
    try {
      const status = await ledger.status(lines[0]!);
      expect(status).toMatchObject({ state: 'issued', source: 'cli' });
      const ms = status!.expiresAt.getTime() - before;
      expect(ms).toBeGreaterThanOrEqual(2 * 86400_000 - 5000);
      expect(ms).toBeLessThanOrEqual(2 * 86400_000 + 5000);
    } finally {
      await ledger.close();
    }
  });

  it('status shows issued, then reserved and redeemed with the domain and certificate', async () => {
    const token = (await tokens(config, 'issue')).stdout.trim();
    expect((await tokens(config, 'status', token)).stdout).toMatch(/^state: +issued\n/);
    const ledger = await openLedger(config);
    try {
      const r = await ledger.reserve(token, 'good.test');
      if (r.kind !== 'reserved') throw new Error('expected a reservation');
      const reserved = (await tokens(config, 'status', token)).stdout;
      expect(reserved).toMatch(/^state: +reserved\n/);
      expect(reserved).toMatch(/\ndomain: +good\.test\n/);
      expect(reserved).toMatch(/\nreserved until: +\d{4}-/);
      await ledger.commit(token, r.reservationId, { id: 'cert-cli-1', domain: 'good.test', body: '{}' });
    } finally {
      await ledger.close();
    }
    const redeemed = await tokens(config, 'status', token);
    expect(redeemed.code).toBe(0);
    expect(redeemed.stdout).toMatch(/^state: +redeemed\n/);
    expect(redeemed.stdout).toMatch(/\ncertificate: +cert-cli-1\n/);
  });

  it('status of a token the ledger never issued exits 1', async () => {
    const out = await tokens(config, 'status', 'dvs_test_' + 'x'.repeat(43));
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('unknown token');
  });

  it('refuses bad arguments as usage errors', async () => {
    for (const args of [
      [],
      ['mint'],
      ['issue', '--count', '0'],
      ['issue', '--count', 'many'],
      ['issue', '--expires', 'soon'],
      ['status'],
    ]) {
      await expect(tokens(config, ...args)).rejects.toBeInstanceOf(UsageError);
    }
  });
});
