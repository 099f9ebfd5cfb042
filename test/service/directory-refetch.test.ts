// Issue 31 item 3: a caller's key directory is fetched again once its cache entry expires, so a key rotation (or
// revocation) is seen within the directory's max-age. The "refetch" was answered from the memo of the network
// layer the service kept for the process, and the agent was refused for good once that answer's signatures
// expired. Here the directory's origin swaps its key; the next lookup past max-age must see the new one.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import dnsPacket from 'dns-packet';
import { calculateJwkThumbprint } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/config.ts';
import { netDirectories } from '../../src/service/caller-identity.ts';
import { TestCa } from '../world/ca.ts';
import { startDnsServer, type DnsServer } from '../world/dns-server.ts';
import { directorySigner } from '../world/sign-directory.ts';
import type { PrivateJwk } from '../world/site-config.ts';

const MAX_AGE_S = 1;
const newKey = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as PrivateJwk;
const publicOf = ({ kty, crv, x }: PrivateJwk) => ({ kty, crv, x });

let dir: string;
let dns: DnsServer;
let server: https.Server;
let current = newKey();
let fetches = 0;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-refetch-'));
  const ca = await TestCa.create();
  const credentials = await ca.issue({
    label: 'agent',
    names: ['agent.test'],
    certificate: 'valid',
    key: 'ec-p256',
    expiresInDays: 30,
  });
  writeFileSync(path.join(dir, 'ca.pem'), ca.rootPem);
  server = https.createServer({ key: credentials.keyPem, cert: credentials.certPem }, (req, res) => {
    fetches += 1;
    const url = `https://${req.headers.host}${req.url}`;
    void directorySigner([current])({ method: 'GET', url, headers: {} }, 200).then((signature) =>
      res
        .writeHead(200, {
          'content-type': 'application/http-message-signatures-directory+json',
          'cache-control': `max-age=${MAX_AGE_S}`,
          ...signature,
        })
        .end(JSON.stringify({ keys: [publicOf(current)] })),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  dns = await startDnsServer((query) =>
    dnsPacket.encode({
      type: 'response',
      id: query.id ?? 0,
      flags: dnsPacket.RECURSION_AVAILABLE,
      questions: query.questions ?? [],
      answers:
        query.questions?.[0]?.type === 'A'
          ? [{ type: 'A', name: query.questions[0].name, ttl: 60, data: '127.0.0.1' }]
          : [],
    }),
  );
});

afterAll(async () => {
  await dns?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("a caller's key directory", () => {
  it('is fetched again once its max-age has passed, so a new key is seen and the old one is not', async () => {
    const config = loadConfig({
      DVS_DATA_DIR: dir,
      DVS_DNS_SERVERS: `${dns.host}:${dns.port}`,
      DVS_ALLOW_NETWORKS: '127.0.0.0/8',
      DVS_EXTRA_CA: path.join(dir, 'ca.pem'),
      DVS_PROBE_HTTPS_PORT: String((server.address() as AddressInfo).port),
    });
    // The cache's floor (30 s by default, so a directory cannot make the service fetch it per request) is lowered
    // to let the directory's own max-age decide within the test.
    const directories = netDirectories(config, { minTtlMs: 0 });
    const url = new URL('https://agent.test/.well-known/http-message-signatures-directory');
    const keyids = async () => {
      const found = await directories.get(url, 5_000);
      expect(found.ok, found.ok ? '' : found.reason).toBe(true);
      return found.ok ? [...found.directory.keys.keys()] : [];
    };

    const first = await calculateJwkThumbprint(publicOf(current), 'sha256');
    expect(await keyids()).toEqual([first]);
    expect(await keyids()).toEqual([first]);
    expect(fetches).toBe(1);

    current = newKey();
    const rotated = await calculateJwkThumbprint(publicOf(current), 'sha256');
    await new Promise((resolve) => setTimeout(resolve, MAX_AGE_S * 1000 + 100));
    expect(await keyids()).toEqual([rotated]);
    expect(fetches).toBe(2);
  });
});
