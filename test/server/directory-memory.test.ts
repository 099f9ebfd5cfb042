// Issue 31 item 2: every distinct Signature-Agent directory a caller names is fetched, and nothing of it may
// stay in memory past the directory cache's own bound. Requests that each name a directory of their own and carry
// a signature that cannot verify (an invented keyid, random bytes) go to the service in a process of its own;
// its RSS must stay within 50 MiB of idle. One directory in 20 is served (64 KiB that list no key, the size a
// directory may have), the others' hosts refuse the connection: both kinds were kept for good, 36 KiB each on
// average (3,000 took the service 107 MiB above idle, held after a collection). The suite sends 2,000, whose
// 70 MiB at that rate is still 1.4 times the bound; DVS_TEST_DIRECTORIES=20000 runs the issue's figure (about 16 s
// of its CPU, 35 to 43 MiB above idle at the peak, and back to idle once the last fetches' timers have passed).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import dnsPacket from 'dns-packet';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCa } from '../world/ca.ts';
import { startDnsServer, type DnsServer } from '../world/dns-server.ts';
import { MiB, startServiceProcess, type ServiceProcess } from './memory-process.ts';

const DIRECTORIES = Number(process.env.DVS_TEST_DIRECTORIES ?? 2_000);
const SERVED_EVERY = 20;
const IN_FLIGHT = 16;
const BOUND = 50 * MiB;
const ZONE = 'agents.test';

let dir: string;
let dns: DnsServer;
let directoryServer: https.Server;
let svc: ServiceProcess;
let agent: Agent;
const asked = new Set<string>();
let served = 0;

/** d<n>.agents.test: served at 127.0.0.1 for one n in SERVED_EVERY, else at 127.0.0.2, where nothing listens. */
const respond: Parameters<typeof startDnsServer>[0] = (query) => {
  const question = query.questions![0]!;
  const n = /^d(\d+)\./.exec(question.name)?.[1];
  const answers =
    question.type === 'A' && n !== undefined
      ? [
          {
            type: 'A' as const,
            name: question.name,
            ttl: 60,
            data: Number(n) % SERVED_EVERY ? '127.0.0.2' : '127.0.0.1',
          },
        ]
      : [];
  if (question.type === 'A') asked.add(question.name);
  return dnsPacket.encode({
    type: 'response',
    id: query.id ?? 0,
    flags: dnsPacket.RECURSION_AVAILABLE,
    questions: query.questions ?? [],
    answers,
  });
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-directories-'));
  const ca = await TestCa.create();
  const credentials = await ca.issue({
    label: 'agents',
    names: [`*.${ZONE}`],
    certificate: 'valid',
    key: 'ec-p256',
    expiresInDays: 30,
  });
  writeFileSync(path.join(dir, 'ca.pem'), ca.rootPem);
  const body = JSON.stringify({ keys: [], padding: 'x'.repeat(63 * 1024) });
  directoryServer = https.createServer({ key: credentials.keyPem, cert: credentials.certPem }, (_req, res) => {
    served += 1;
    res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json' }).end(body);
  });
  await new Promise<void>((resolve) => directoryServer.listen(0, '127.0.0.1', resolve));
  dns = await startDnsServer(respond);
  svc = await startServiceProcess({
    DVS_DNS_SERVERS: `${dns.host}:${dns.port}`,
    DVS_ALLOW_NETWORKS: '127.0.0.0/8',
    DVS_EXTRA_CA: path.join(dir, 'ca.pem'),
    DVS_PROBE_HTTPS_PORT: String((directoryServer.address() as AddressInfo).port),
    // Every request waits for its directory, so each of them is fetched (the wait's bound is tested elsewhere).
    DVS_CALLER_DIRECTORY_WAIT_MS: '10000',
  });
  agent = new Agent({ connect: { ca: svc.caPem, servername: 'localhost' }, connections: IN_FLIGHT });
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await svc?.stop();
  await dns?.close();
  directoryServer?.closeAllConnections();
  await new Promise((resolve) => directoryServer?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A request signed for directory n: well formed, fresh, with a keyid no directory lists and random bytes. */
async function signedRequest(n: number): Promise<number> {
  const created = Math.floor(Date.now() / 1000);
  const res = await request(`https://127.0.0.1:${svc.port}/healthz`, {
    dispatcher: agent,
    headers: {
      'signature-agent': `"https://d${n}.${ZONE}"`,
      'signature-input': `sig1=("@authority" "signature-agent");created=${created};expires=${created + 60};keyid="invented-${n}";tag="web-bot-auth"`,
      signature: `sig1=:${randomBytes(64).toString('base64')}:`,
    },
  });
  await res.body.dump();
  return res.statusCode;
}

/** Sends the requests for directories [from, to) with IN_FLIGHT at a time; stops early once `stop` says so. */
async function sendAll(from: number, to: number, stop: () => boolean): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < to && !stop()) expect(await signedRequest(next++)).toBe(200);
    }),
  );
}

describe('callers naming a new key directory in every request', () => {
  it(`leave the service within 50 MiB of idle after ${DIRECTORIES} directories`, async () => {
    await sendAll(0, 200, () => false);
    const idle = await svc.idle();
    let over = false;
    const watch = setInterval(() => void svc.sample().then((s) => (over ||= s.peak - idle.rss > BOUND)), 250);
    try {
      await sendAll(200, 200 + DIRECTORIES, () => over);
    } finally {
      clearInterval(watch);
    }
    const sample = await svc.sample();
    expect((sample.peak - idle.rss) / MiB, 'MiB above idle').toBeLessThanOrEqual(BOUND / MiB);
    expect(asked.size, 'directories whose host was looked up').toBe(200 + DIRECTORIES);
    expect(served).toBeGreaterThanOrEqual((200 + DIRECTORIES) / SERVED_EVERY);
  }, 300_000);
});
