// Caller identity end to end (issue 10 item 6). The service runs inside the fixture internet as dvs.test, so its
// own key directory is reachable like any other; callers sign with the independent web-bot-auth package (the RFC
// 8032 key, whose directory good.test serves) and with the service's own agent key. A verified caller gets
// X-Verified-Agent, its own Quick Scan budget and a metric; anything else is served exactly as unsigned.
import tls from 'node:tls';
import { request } from 'undici';
import { signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebBotAuthSigner } from '../../src/net/web-bot-auth.ts';
import { loadAgentKey } from '../../src/signing/keys.ts';
import { startApiWorld, startServiceAsSite, type TestService } from '../server/harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;

const RFC8032_KEY = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
};
const GOOD_DIRECTORY = 'https://good.test/.well-known/http-message-signatures-directory';
const SELF_DIRECTORY = 'https://dvs.test/.well-known/http-message-signatures-directory';

beforeAll(async () => {
  world = await startApiWorld(['good', 'nxdomain']);
  svc = await startServiceAsSite(world, 'dvs', {
    DVS_QUICK_RATE_LIMIT: '1',
    DVS_VERIFIED_AGENT_RATE_LIMIT: '3',
    // Generous on a loaded test machine; the bound itself is tested in test/signing/agent-directories.test.ts.
    DVS_CALLER_DIRECTORY_WAIT_MS: '5000',
    DVS_METRICS_PORT: '0',
    DVS_METRICS_HOST: '127.0.0.1',
  });
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

/** Headers of a request to `pathname` on the service, signed by web-bot-auth with `agent` as Signature-Agent. */
async function wbaHeaders(
  method: string,
  pathname: string,
  agent: string,
  offsetS = 0,
  origin = 'https://dvs.test',
): Promise<Record<string, string>> {
  const created = new Date((Math.floor(Date.now() / 1000) + offsetS) * 1000);
  const expires = new Date(created.getTime() + 60_000);
  const target = new Request(`${origin}${pathname}`, { method, headers: { 'Signature-Agent': `"${agent}"` } });
  const signed = await signatureHeaders(target, await signerFromJWK(RFC8032_KEY), { created, expires });
  return {
    'signature-agent': `"${agent}"`,
    'signature-input': signed['Signature-Input'],
    signature: signed.Signature,
  };
}

const quickscan = async (domain: string, headers: Record<string, string> = {}) =>
  (await svc.post('/api/quickscan', { domain }, headers)).status;

async function metric(outcome: string): Promise<number> {
  const res = await request(`http://127.0.0.1:${svc.service.metricsPort}/metrics`);
  const text = await res.body.text();
  const m = new RegExp(`^dvs_caller_signatures_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

describe('a caller signing with web-bot-auth', () => {
  it('is verified as its directory origin: X-Verified-Agent and the metric', async () => {
    const before = await metric('verified');
    const res = await svc.call('GET', '/healthz', { headers: await wbaHeaders('GET', '/healthz', GOOD_DIRECTORY) });
    expect(res.status).toBe(200);
    expect(res.headers['x-verified-agent']).toBe('https://good.test');
    expect(await metric('verified')).toBe(before + 1);
  });

  it('gets the verified-agent Quick Scan budget, while an unsigned caller keeps the default', async () => {
    expect(await quickscan('limit-a.test')).toBe(200);
    expect(await quickscan('limit-b.test')).toBe(429);
    const signed = () => wbaHeaders('POST', '/api/quickscan', GOOD_DIRECTORY);
    expect(await quickscan('limit-c.test', await signed())).toBe(200);
    expect(await quickscan('limit-d.test', await signed())).toBe(200);
    expect(await quickscan('limit-e.test', await signed())).toBe(200);
    expect(await quickscan('limit-f.test', await signed())).toBe(429);
  });

  it('is served as unsigned when the signature falls short, never refused', async () => {
    const before = await metric('invalid');
    const cases: Record<string, Record<string, string>> = {
      expired: await wbaHeaders('GET', '/healthz', GOOD_DIRECTORY, -600),
      'tampered Signature-Agent': {
        ...(await wbaHeaders('GET', '/healthz', GOOD_DIRECTORY)),
        'signature-agent': `"https://good.test/.well-known/http-message-signatures-directory?x"`,
      },
      'directory unreachable': await wbaHeaders('GET', '/healthz', 'https://nxdomain.test/'),
      'directory at a refused address': await wbaHeaders('GET', '/healthz', 'https://169.254.169.254/'),
      'directory with a bad self-signature': await wbaHeaders('GET', '/healthz', 'https://agent-keys.test'),
      'key past its exp': await wbaHeaders('GET', '/healthz', 'https://agent-expired.test'),
    };
    for (const [name, headers] of Object.entries(cases)) {
      const res = await svc.call('GET', '/healthz', { headers });
      expect(res.status, name).toBe(200);
      expect(res.headers['x-verified-agent'], name).toBeUndefined();
    }
    expect(await metric('invalid')).toBe(before + Object.keys(cases).length);
  });

  it('pays nothing when unsigned: no header, no metric', async () => {
    const before = [await metric('verified'), await metric('invalid')];
    const res = await svc.call('GET', '/healthz');
    expect(res.headers['x-verified-agent']).toBeUndefined();
    expect([await metric('verified'), await metric('invalid')]).toEqual(before);
  });
});

/** The raw request `GET <target>` with `headers`, over TLS to the service; its status and X-Verified-Agent. */
function rawGet(target: string, headers: Record<string, string>): Promise<{ status: number; agent: string | null }> {
  const { hostname, port } = new URL(svc.url);
  const lines = [`GET ${target} HTTP/1.1`, 'Host: dvs.test', 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: hostname, port: Number(port), ca: world.caPem, servername: 'dvs.test' }, () =>
      socket.write(`${lines.join('\r\n')}\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]),
        agent: /^x-verified-agent: (.*)\r$/im.exec(text)?.[1] ?? null,
      }),
    );
    socket.on('error', reject);
  });
}

describe('the URL a signature is checked against', () => {
  it('is built from the path: a target naming another authority is refused, not verified for it', async () => {
    // Issue 31 item 8: "work://z/healthz" made the URL https://dvs.testwork://z/healthz, authority dvs.testwork.
    const forged = await wbaHeaders('GET', '/healthz', GOOD_DIRECTORY, 0, 'https://dvs.testwork');
    expect(await rawGet('work://z/healthz', forged)).toEqual({ status: 400, agent: null });
    expect(await rawGet('https://elsewhere.test/healthz', forged)).toEqual({ status: 400, agent: null });
    // Absolute-form naming this service is served as its path, and verified for this service's authority.
    const honest = await wbaHeaders('GET', '/healthz', GOOD_DIRECTORY);
    expect(await rawGet('https://dvs.test/healthz', honest)).toEqual({ status: 200, agent: 'https://good.test' });
    expect(await rawGet('/healthz', honest)).toEqual({ status: 200, agent: 'https://good.test' });
  });
});

describe("the service's own agent key", () => {
  it('signs requests that this service verifies against its own key directory', async () => {
    const sign = createWebBotAuthSigner(await loadAgentKey(svc.dataDir), SELF_DIRECTORY);
    const headers = await sign({ method: 'GET', url: 'https://dvs.test/health', headers: {} });
    const res = await svc.call('GET', '/healthz', { headers });
    expect(res.headers['x-verified-agent']).toBe('https://dvs.test');
  });
});
