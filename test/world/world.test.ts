import { describe, it, expect } from 'vitest';
import dgram from 'node:dgram';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/lib/config.ts';
import { startWorld } from './index.ts';
import { query, rcodeOf } from './dns-client.ts';
import { fetchSite } from './https-client.ts';
import { expandTemplates } from './site-server.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sites');
/** The ports a socket or server holds, at either end (none for other handles, or once closed). */
function portsOf(handle: unknown): (number | undefined)[] {
  if (handle instanceof net.Socket) return [handle.localPort, handle.remotePort];
  if (handle instanceof net.Server) {
    const bound = handle.address();
    return bound && typeof bound === 'object' ? [bound.port] : [];
  }
  if (handle instanceof dgram.Socket) {
    try {
      return [handle.address().port];
    } catch {
      // Not bound yet, or closing: it holds no port.
      return [];
    }
  }
  return [];
}

/**
 * This process's open sockets and servers on any of the given ports: a world's own, not the keep-alive
 * connections that earlier files in the worker may leave to the shared world until its sites close them.
 */
function openOn(ports: number[]): number {
  const active = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return active.filter((h) => portsOf(h).some((p) => p !== undefined && ports.includes(p))).length;
}

function canBind(port: number, address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, address, () => s.close(() => resolve(true)));
  });
}

function canBindUdp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = dgram.createSocket('udp4');
    s.once('error', () => resolve(false));
    s.bind(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

describe('startWorld and stop', () => {
  it('gives settings that loadConfig accepts and that point at the world', async () => {
    const world = await startWorld();
    try {
      const config = loadConfig(world.env);
      expect(config.net.dnsServers).toEqual([`127.0.0.1:${world.dnsPort}`]);
      expect(config.net.allowNetworks).toEqual(['127.0.0.0/8', '::1/128']);
      expect(config.net.probeHttpsPort).toBe(world.httpsPort);
      expect(config.net.probeHttpPort).toBe(world.httpPort);
      expect(config.extraSuffixes).toEqual(['test']);
      expect(readFileSync(config.net.extraCaFile!, 'utf8')).toBe(world.caPem);
      expect(world.env.DVS_WORLD_DEAD_DNS).toBe(`127.0.0.1:${world.deadDnsPort}`);
      expect(world.sites.map((s) => s.name)).toEqual(expect.arrayContaining(['good', 'dns-timeout', 'nxdomain']));
      expect(world.url('good', '/robots.txt')).toBe(`https://good.test:${world.httpsPort}/robots.txt`);
    } finally {
      await world.stop();
    }
  });

  it('releases every socket and port and removes its temp dir', async () => {
    const world = await startWorld({ sitesDir: FIXTURES });
    const ports = [world.httpsPort, world.httpPort, world.dnsPort, world.deadDnsPort];
    const basic = world.sites.find((s) => s.name === 'basic')!;
    // Leave a keep-alive connection and a pending delayed response open: stop must end them too.
    const pending = fetchSite({
      address: basic.address,
      port: world.httpsPort,
      host: 'basic.test',
      path: '/slow',
      ca: world.caPem,
    }).then(
      () => 'answered',
      () => 'cut off',
    );
    await fetchSite({ address: basic.address, port: world.httpsPort, host: 'basic.test', ca: world.caPem });
    await fetchSite({ address: '::1', port: world.httpsPort, host: 'basic.test', ca: world.caPem });
    expect(openOn(ports)).toBeGreaterThan(0);
    await world.stop();
    expect(await pending).toBe('cut off');
    expect(openOn(ports)).toBe(0);
    expect(existsSync(world.env.DVS_EXTRA_CA!)).toBe(false);
    expect(await canBind(world.httpsPort, basic.address)).toBe(true);
    expect(await canBind(world.httpPort, basic.address)).toBe(true);
    expect(await canBind(world.httpsPort, '::1')).toBe(true);
    expect(await canBind(world.httpPort, '::1')).toBe(true);
    expect(await canBind(world.dnsPort, '127.0.0.1')).toBe(true);
    expect(await canBindUdp(world.dnsPort)).toBe(true);
    expect(await canBindUdp(world.deadDnsPort)).toBe(true);
  }, 30_000);

  it('counts the connections its sites accept, by scheme, and the DNS queries it answers', async () => {
    const world = await startWorld({ sitesDir: FIXTURES });
    try {
      const basic = world.sites.find((s) => s.name === 'basic')!;
      const site = { address: basic.address, host: 'basic.test' };
      await fetchSite({ ...site, port: world.httpsPort, ca: world.caPem });
      await fetchSite({ ...site, port: world.httpsPort, ca: world.caPem });
      await fetchSite({ ...site, scheme: 'http', port: world.httpPort });
      await query(world.dnsPort, 'basic.test', 'A');
      await query(world.dnsPort, 'basic.test', 'AAAA', { transport: 'tcp' });
      await query(world.deadDnsPort, 'basic.test', 'A', { timeoutMs: 50 });
      expect([world.connections('https'), world.connections('http'), world.connections()]).toEqual([2, 1, 3]);
      expect(world.dnsQueries()).toBe(2);
    } finally {
      await world.stop();
    }
  });

  it('listens on the ports it is given', async () => {
    const free = async (): Promise<number> => {
      const s = net.createServer();
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      const { port } = s.address() as net.AddressInfo;
      await new Promise<void>((resolve) => s.close(() => resolve()));
      return port;
    };
    const ports = { https: await free(), http: await free() };
    const world = await startWorld({ sitesDir: FIXTURES, ports });
    try {
      expect([world.httpsPort, world.httpPort]).toEqual([ports.https, ports.http]);
      expect(world.url('basic', '/', 'http')).toBe(`http://basic.test:${ports.http}/`);
    } finally {
      await world.stop();
    }
  });

  it('assigns the same addresses and certificate serials on every start', async () => {
    const a = await startWorld({ sitesDir: FIXTURES });
    const b = await startWorld({ sitesDir: FIXTURES });
    try {
      expect(b.sites).toEqual(a.sites);
      const serial = async (w: typeof a) => {
        const site = w.sites.find((s) => s.name === 'basic')!;
        const r = await fetchSite({ address: site.address, port: w.httpsPort, host: 'basic.test', ca: w.caPem });
        return r.peer!.serialNumber;
      };
      expect(await serial(b)).toBe(await serial(a));
      const addresses = a.sites.map((s) => s.address);
      expect(new Set(addresses).size).toBe(addresses.length);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('serves only the sites named, and refuses a name it does not have', async () => {
    const world = await startWorld({ sitesDir: FIXTURES, sites: ['basic', 'legacy'] });
    try {
      expect(world.sites.map((s) => s.name)).toEqual(['basic', 'legacy']);
      expect(rcodeOf((await query(world.dnsPort, 'basic.test', 'A'))!)).toBe('NOERROR');
      expect(rcodeOf((await query(world.dnsPort, 'redirector.test', 'A'))!)).toBe('NXDOMAIN');
    } finally {
      await world.stop();
    }
    await expect(startWorld({ sitesDir: FIXTURES, sites: ['basic', 'nowhere'] })).rejects.toThrow(
      'no such site: nowhere',
    );
  });

  it('keeps its files in the data dir it is given', async () => {
    const dataDir = path.join(os.tmpdir(), `dvs-world-data-${process.pid}`);
    const world = await startWorld({ sitesDir: FIXTURES, dataDir });
    await world.stop();
    expect(readFileSync(path.join(dataDir, 'world-ca.pem'), 'utf8')).toBe(world.caPem);
    await rm(dataDir, { recursive: true });
  });

  it('refuses a site file with an unknown field, naming the file', async () => {
    await expect(startWorld({ sitesDir: path.join(FIXTURES, '..', 'broken-sites') })).rejects.toThrow(
      /typo\/site\.yaml.*redirect_to_http/,
    );
  });
});

describe('templates', () => {
  it('turns {{date +Nd}} and {{date -Nh}} into ISO instants relative to now', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(expandTemplates('Expires: {{date +300d}}', 'a.test', now)).toBe('Expires: 2030-10-28T00:00:00Z');
    expect(expandTemplates('{{ date -2h }} and {{other}}', 'a.test', now)).toBe('2029-12-31T22:00:00Z and {{other}}');
  });

  it('turns every {{domain}} into the serving site domain', () => {
    expect(expandTemplates('https://{{domain}}/a and mailto:x@{{ domain }}', 'b.test')).toBe(
      'https://b.test/a and mailto:x@b.test',
    );
  });
});
