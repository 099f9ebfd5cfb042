// Webhooks end to end on PostgreSQL: deliveries to the fixture internet's receiver (hooks.test), verified by the
// Standard Webhooks library; retries with one webhook-id, 410 disabling the endpoint, a rotated secret signing
// beside the new one, and a URL refused when it resolves to an address the network layer does not allow.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { postgresReachable } from '../payments/postgres.ts';
import { useWorld, type SharedWorld } from '../suite/world.ts';
import { fetchSite } from '../world/https-client.ts';
import type { ReceivedRequest } from '../world/receiver.ts';
import { startBatchService, type BatchService } from './helpers.ts';

const pgUp = await postgresReachable();

describe.skipIf(!pgUp)('webhooks', () => {
  let svc: BatchService;
  let world: SharedWorld;

  beforeAll(async () => {
    world = await useWorld();
    // The specification's schedule divided by 1,000: retries after 5 ms, 300 ms, 1.8 s...
    svc = await startBatchService({ DVS_WEBHOOK_RETRY_DIVISOR: '1000' });
  }, 60_000);
  afterAll(async () => svc?.stop());
  // Each test's endpoint goes with it: a later test's deliveries (and the receiver's script) are its own.
  afterEach(async () => {
    const { webhooks } = (await svc.api('GET', '/api/webhooks')).json() as { webhooks: { id: string }[] };
    for (const { id } of webhooks) await svc.api('DELETE', `/api/webhooks/${id}`);
  });

  const hooks = () => world.sites.find((s) => s.name === 'hooks')!;
  const received = async (path: string): Promise<ReceivedRequest[]> => {
    const answer = await fetchSite({
      address: hooks().address,
      port: world.httpsPort,
      host: 'hooks.test',
      path: '/_received',
      ca: world.caPem,
    });
    return (JSON.parse(answer.body.toString('utf8')) as ReceivedRequest[]).filter((r) => r.path === path);
  };
  const receivedAtLeast = async (path: string, n: number, timeoutMs = 20_000): Promise<ReceivedRequest[]> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const got = await received(path);
      if (got.length >= n || Date.now() > until) return got;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const script = (statuses: number[]) =>
    fetch(`${world.env.DVS_WORLD_CONTROL}/hooks/statuses`, { method: 'POST', body: JSON.stringify(statuses) });
  const register = async (path: string, events: string[]) => {
    const res = await svc.api('POST', '/api/webhooks', { url: world.url('hooks', path), events });
    expect(res.status).toBe(201);
    return res.json() as { id: string; secret: string; url: string; disabled_at: string | null };
  };
  const runBatch = async (domains = ['good.test']) => {
    const res = await svc.api('POST', '/api/batches', { mode: 'quick', domains });
    expect(res.status).toBe(202);
    const id = (res.json() as { id: string }).id;
    await svc.finished(id);
    return id;
  };
  const verified = (secret: string, r: ReceivedRequest) =>
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };

  it('delivers the events an endpoint takes, signed as the Standard Webhooks library verifies', async () => {
    const endpoint = await register('/t1', ['batch.completed', 'validation.completed']);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const batch = await runBatch();
    const got = await receivedAtLeast('/t1', 2);
    expect(got).toHaveLength(2);
    const events = got.map((r) => verified(endpoint.secret, r));
    expect(events.map((e) => e.type).sort()).toEqual(['batch.completed', 'validation.completed']);
    expect(events.find((e) => e.type === 'batch.completed')!.data).toMatchObject({
      batch_id: batch,
      status: 'done',
      total: 1,
    });
    expect(events.find((e) => e.type === 'validation.completed')!.data).toMatchObject({ domain: 'good.test' });
    expect(got[0]!.headers['content-type']).toBe('application/json');
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(2);

    const listed = (await svc.api('GET', '/api/webhooks')).json() as { webhooks: { id: string }[] };
    expect(listed.webhooks.map((w) => w.id)).toContain(endpoint.id);
    expect(JSON.stringify(listed)).not.toContain(endpoint.secret);
  }, 60_000);

  it('retries a 500, 500, 200 receiver with the same webhook-id, and lists every attempt', async () => {
    const endpoint = await register('/t2', ['batch.completed']);
    expect((await script([500, 500, 200])).status).toBe(204);
    await runBatch();
    const got = await receivedAtLeast('/t2', 3);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of got) expect(verified(endpoint.secret, r).type).toBe('batch.completed');
    // An attempt is recorded once its answer is in: the third may still be on its way to the database.
    type Deliveries = { deliveries: { webhook_id: string; attempt: number; status: number; event: string }[] };
    let deliveries: Deliveries = { deliveries: [] };
    for (const until = Date.now() + 10_000; deliveries.deliveries.length < 3 && Date.now() < until;) {
      deliveries = (await svc.api('GET', `/api/webhooks/${endpoint.id}/deliveries`)).json() as Deliveries;
      if (deliveries.deliveries.length < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(deliveries.deliveries.map((d) => [d.attempt, d.status])).toEqual([
      [3, 200],
      [2, 500],
      [1, 500],
    ]);
    expect(deliveries.deliveries[0]!.webhook_id).toBe(got[0]!.headers['webhook-id']);
  }, 60_000);

  it('disables an endpoint that answers 410 Gone', async () => {
    const endpoint = await register('/t3', ['batch.completed']);
    await script([410]);
    await runBatch();
    expect(await receivedAtLeast('/t3', 1)).toHaveLength(1);
    const until = Date.now() + 10_000;
    let state = endpoint;
    while (state.disabled_at === null && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      state = (await svc.api('GET', `/api/webhooks/${endpoint.id}`)).json() as typeof endpoint;
    }
    expect(state.disabled_at).toEqual(expect.any(String));
    const deliveries = (await svc.api('GET', `/api/webhooks/${endpoint.id}/deliveries`)).json() as {
      deliveries: { status: number }[];
    };
    expect(deliveries.deliveries.map((d) => d.status)).toEqual([410]);
  }, 60_000);

  it('does not follow a redirect: a 3xx is a failed attempt, retried to the same URL', async () => {
    const endpoint = await register('/t6', ['batch.completed']);
    await script([302]);
    await runBatch();
    const got = await receivedAtLeast('/t6', 2);
    expect(got).toHaveLength(2);
    expect(await received('/_redirected')).toEqual([]);
    const deliveries = (await svc.api('GET', `/api/webhooks/${endpoint.id}/deliveries`)).json() as {
      deliveries: { attempt: number; status: number }[];
    };
    expect(deliveries.deliveries.map((d) => [d.attempt, d.status])).toEqual([
      [2, 200],
      [1, 302],
    ]);
  }, 60_000);

  it('signs with the new secret and the rotated one during the overlap', async () => {
    const endpoint = await register('/t4', ['batch.completed']);
    const rotated = await svc.api('POST', `/api/webhooks/${endpoint.id}/secret`);
    expect(rotated.status).toBe(200);
    const { secret, previous_secret_until } = rotated.json() as { secret: string; previous_secret_until: string };
    expect(secret).not.toBe(endpoint.secret);
    expect(Date.parse(previous_secret_until)).toBeGreaterThan(Date.now());
    await runBatch();
    const [delivery] = await receivedAtLeast('/t4', 1);
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const s of [secret, endpoint.secret]) expect(verified(s, delivery!).type).toBe('batch.completed');
  }, 60_000);

  it('answers 404 for unknown ids, 400 for a bad body, 401 without a key, and deletes', async () => {
    const endpoint = await register('/t5', ['batch.completed']);
    expect(
      (await svc.api('POST', '/api/webhooks', { url: 'http://hooks.test/x', events: ['batch.completed'] })).status,
    ).toBe(400);
    expect((await svc.api('POST', '/api/webhooks', { url: world.url('hooks', '/x'), events: ['nope'] })).status).toBe(
      400,
    );
    expect((await svc.api('GET', '/api/webhooks/ep_000000000000000000000000')).status).toBe(404);
    expect((await svc.api('DELETE', `/api/webhooks/${endpoint.id}`)).status).toBe(204);
    expect((await svc.api('GET', `/api/webhooks/${endpoint.id}/deliveries`)).status).toBe(404);
    expect((await svc.call('GET', '/api/webhooks')).status).toBe(401);
  });
});

describe.skipIf(!pgUp)('webhooks outside test mode', () => {
  it('refuses a URL that resolves to a private address', async () => {
    // The fixture internet's addresses are loopback ones: without the test allowance they are private.
    const svc = await startBatchService({ DVS_ALLOW_NETWORKS: '' });
    try {
      const world = await useWorld();
      const res = await svc.api('POST', '/api/webhooks', {
        url: world.url('hooks', '/x'),
        events: ['batch.completed'],
      });
      expect(res.status).toBe(400);
      expect((res.json() as { error: string }).error).toMatch(/^url: /);
    } finally {
      await svc.stop();
    }
  }, 60_000);
});
