import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from './index.ts';
import { query, rcodeOf } from './dns-client.ts';
import { fetchSite } from './https-client.ts';
import type { ReceivedRequest } from './receiver.ts';

let world: World;
beforeAll(async () => {
  // The sites changed and the ones they are switched to (the good site is what flip.test answers as at rest).
  world = await startWorld({ sites: ['flip', 'hooks', 'good', 'dns-servfail', 'wk-robots-5xx', 'tls-expired'] });
});
afterAll(() => world.stop());

const control = (method: string, path: string, body?: string) =>
  fetch(`${world.env.DVS_WORLD_CONTROL}${path}`, { method, body });

function site(name: string) {
  return world.sites.find((s) => s.name === name)!;
}

/** GET a path of flip.test over HTTPS, trusting the world's CA. */
const getFlip = (path: string) =>
  fetchSite({ address: site('flip').address, port: world.httpsPort, host: 'flip.test', path, ca: world.caPem });

const postHook = (body: string) =>
  fetchSite({
    address: site('hooks').address,
    port: world.httpsPort,
    host: 'hooks.test',
    path: '/events?x=1',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
    body,
    ca: world.caPem,
  });

describe('a site that changes while the world runs', () => {
  it('flip.test answers as good.test, under its own name, until it is changed', async () => {
    const robots = await getFlip('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers['strict-transport-security']).toMatch(/max-age=63072000/);
    const dmarc = await query(world.dnsPort, '_dmarc.flip.test', 'TXT');
    const text = dmarc!.answers!.flatMap((a) => (a as { data: Buffer[] }).data.map((b) => b.toString('utf8')));
    expect(text).toEqual(['v=DMARC1; p=reject; rua=mailto:dmarc-reports@flip.test']);
  });

  it('answers as the template in HTTP, TLS and DNS, then as itself again', async () => {
    const changed = await control('POST', '/sites/flip/as/wk-robots-5xx');
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ site: 'flip', as: 'wk-robots-5xx' });
    expect((await getFlip('/robots.txt')).status).toBe(503);

    expect((await control('POST', '/sites/flip.test/as/tls-expired')).status).toBe(200);
    const expired = await fetchSite({
      address: site('flip').address,
      port: world.httpsPort,
      host: 'flip.test',
      ca: world.caPem,
    }).catch((err: NodeJS.ErrnoException) => err.code);
    expect(expired).toBe('CERT_HAS_EXPIRED');

    expect((await control('POST', '/sites/flip/as/dns-servfail')).status).toBe(200);
    expect(rcodeOf((await query(world.dnsPort, 'flip.test', 'A'))!)).toBe('SERVFAIL');

    expect((await control('DELETE', '/sites/flip')).status).toBe(200);
    expect(rcodeOf((await query(world.dnsPort, 'flip.test', 'A'))!)).toBe('NOERROR');
    expect((await getFlip('/robots.txt')).status).toBe(200);
  });

  it('refuses unknown sites and templates with 404', async () => {
    expect((await control('POST', '/sites/nowhere/as/good')).status).toBe(404);
    expect((await control('POST', '/sites/flip/as/nowhere')).status).toBe(404);
    expect((await control('GET', '/elsewhere')).status).toBe(404);
  });
});

describe('the receiving site hooks.test', () => {
  it('answers with the scripted statuses, then 200, and records every request', async () => {
    expect((await control('DELETE', '/hooks/received')).status).toBe(204);
    expect((await control('POST', '/hooks/statuses', '[500, 500, 200, 410]')).status).toBe(204);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await postHook(`{"n":${i}}`)).status);
    expect(statuses).toEqual([500, 500, 200, 410, 200]);

    const listed = await fetchSite({
      address: site('hooks').address,
      port: world.httpsPort,
      host: 'hooks.test',
      path: '/_received',
      ca: world.caPem,
    });
    const received = JSON.parse(listed.body.toString('utf8')) as ReceivedRequest[];
    expect(received.map((r) => r.body)).toEqual([0, 1, 2, 3, 4].map((n) => `{"n":${n}}`));
    expect(received[0]).toMatchObject({ method: 'POST', path: '/events?x=1', headers: { 'webhook-id': 'msg_1' } });
  });

  it('refuses a script that is not a list of statuses', async () => {
    expect((await control('POST', '/hooks/statuses', '[99]')).status).toBe(400);
    expect((await control('POST', '/hooks/statuses', 'nope')).status).toBe(400);
    expect((await control('POST', '/good/statuses', '[200]')).status).toBe(404);
  });
});
