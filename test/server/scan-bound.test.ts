// The service-wide bound on concurrent scans (issue 13 item 3): a flood of Quick Scans of distinct domains from
// many client addresses (each under its own rate limit) is answered 503 with Retry-After and code `busy` past
// the bound and its short queue, while health answers at once and a paid Full Validation still runs in the
// slot kept for it.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SITES_DIR, startWorld, type World } from '../world/index.ts';
import { startTestService, type TestService } from './harness.ts';
import { expectEvery } from '../helpers/every.ts';

/** Sites that answer every request after 1 s, so a scan of one holds its slot past the queue's wait. */
const SLOW_SITES = 8;
/** Each request of the flood comes from its own loopback address. */
const CLIENTS = 16;

let world: World;
let sitesDir: string;
let svc: TestService;

beforeAll(async () => {
  sitesDir = mkdtempSync(path.join(os.tmpdir(), 'dvs-bound-sites-'));
  symlinkSync(path.join(DEFAULT_SITES_DIR, 'good'), path.join(sitesDir, 'good'));
  for (let i = 1; i <= SLOW_SITES; i++) {
    mkdirSync(path.join(sitesDir, `slow-${i}`));
    writeFileSync(
      path.join(sitesDir, `slow-${i}`, 'site.yaml'),
      `description: answers after 1 s\ndomain: slow-${i}.test\nhttps: {}\ndelay_ms: 1000\n`,
    );
  }
  world = await startWorld({ sitesDir });
  // Two slots, one of them kept for Full Validations; one Quick Scan may wait, for one second.
  svc = await startTestService({
    ...world.env,
    DVS_MAX_SCANS: '2',
    DVS_SCAN_QUEUE: '1',
    DVS_SCAN_QUEUE_WAIT_MS: '1000',
  });
});

afterAll(async () => {
  await svc?.stop();
  await world?.stop();
  rmSync(sitesDir, { recursive: true, force: true });
});

/** A Quick Scan sent from 127.0.0.<host>. */
async function quickScanFrom(host: number, domain: string) {
  const agent = new Agent({ connect: { ca: svc.caPem, servername: 'localhost', localAddress: `127.0.0.${host}` } });
  try {
    const res = await request(`${svc.url}/api/quickscan`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ domain }),
    });
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], body: await res.body.json() };
  } finally {
    await agent.close();
  }
}

describe('the bound on concurrent scans', () => {
  it(
    'answers a flood with 503 busy, and still answers health and a paid validation',
    { timeout: 120_000 },
    async () => {
      const flood = Promise.all(
        Array.from({ length: CLIENTS }, (_, i) => quickScanFrom(10 + i, `slow-${(i % SLOW_SITES) + 1}.test`)),
      );
      // While the flood holds the Quick Scan slot: health at once, and a Full Validation in the kept slot.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      const health = await svc.call('GET', '/healthz');
      const healthMs = performance.now() - started;
      const token = svc.gate.issue();
      const paid = await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token });

      const answers = await flood;
      expect(health.status).toBe(200);
      expect(healthMs).toBeLessThan(5000);
      expect(paid.status, paid.text).toBe(200);
      expect((paid.json() as { isError?: boolean }).isError).not.toBe(true);
      expect(svc.gate.released).not.toContain(token);

      const busy = answers.filter((a) => a.status === 503);
      expectEvery(answers, (a) => a.status === 200 || a.status === 503, 'every answer is 200 or 503');
      // One scan runs, one waits: at least the requests for the other six domains are refused.
      expect(busy.length).toBeGreaterThanOrEqual(CLIENTS - 2 * (CLIENTS / SLOW_SITES));
      for (const b of busy) {
        expect(Number(b.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(b.body).toMatchObject({
          code: 'busy',
          error: expect.stringMatching(/as many scans as it can/) as unknown,
        });
      }
    },
  );
});
