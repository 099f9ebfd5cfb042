import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSites, SiteConfigError, type Site } from './site-config.ts';
import { findFile } from './site-files.ts';
import { startWorld, type World } from './index.ts';
import { fetchSite } from './https-client.ts';

/** Writes sites (name -> site.yaml text and files) into a fresh folder. */
function sitesDir(sites: Record<string, { yaml: string; files?: Record<string, string> }>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-world-extends-'));
  for (const [name, site] of Object.entries(sites)) {
    mkdirSync(path.join(dir, name), { recursive: true });
    writeFileSync(path.join(dir, name, 'site.yaml'), site.yaml);
    for (const [file, text] of Object.entries(site.files ?? {})) {
      mkdirSync(path.dirname(path.join(dir, name, 'files', file)), { recursive: true });
      writeFileSync(path.join(dir, name, 'files', file), text);
    }
  }
  return dir;
}

const BASE = `
description: the base
domain: base.test
aliases: [www.base.test]
address: 127.0.99.1
canonical_host: {name: base.test}
ipv6: true
https: {min_version: TLSv1.2, alpn: [h2, http/1.1]}
http: {redirect_to_https: true}
headers: {strict-transport-security: max-age=63072000, x-frame-options: DENY, reporting-endpoints: 'default="https://{{domain}}/r"'}
routes:
  /: {headers: {cache-control: max-age=300, etag: '"home"'}}
  /gone: {status: 410}
dns:
  ad: true
  records:
    - {name: "@", type: TXT, data: ["v=spf1 mx -all"]}
    - {name: "@", type: MX, data: {preference: 10, exchange: "mail.{{domain}}"}}
    - {name: mail, type: A, data: 127.0.99.25}
    - {name: "@", type: CAA, data: {flags: 0, tag: issue, value: letsencrypt.org}}
    - {name: "@", type: CAA, data: {flags: 0, tag: iodef, value: "mailto:security@{{domain}}"}}
`;
const BASE_FILES = {
  'index.html': '<!doctype html><title>Base</title><link rel="canonical" href="https://{{domain}}/">',
  'robots.txt': 'User-agent: *\nAllow: /\n\nSitemap: https://{{domain}}/sitemap.xml\n',
  'llms.txt': '# Base\n',
  'docs/index.html': '<p>docs</p>',
  'docs/a.md': '# A\n',
};

function byName(sites: Site[], name: string): Site {
  return sites.find((s) => s.name === name)!;
}

describe('extends: site.yaml', () => {
  let dir: string;
  let sites: Site[];
  beforeAll(() => {
    dir = sitesDir({
      base: { yaml: BASE, files: BASE_FILES },
      child: {
        yaml: `
extends: base
domain: child.test
https: {max_version: TLSv1.2}
headers: {x-frame-options: null, x-extra: "1"}
routes:
  /: {headers: {cache-control: no-store}}
  /gone: null
  /new: {body: "new on {{domain}}"}
remove_files: [llms.txt, docs/]
dns:
  records:
    - {name: "@", type: TXT, data: ["v=spf1 -all"]}
  remove_records:
    - {name: "@", type: CAA}
`,
        files: { 'robots.txt': 'User-agent: *\nDisallow: /\n' },
      },
      grandchild: {
        yaml: 'extends: child\ndomain: grand.test\ndns: {ad: false}\n',
        files: { 'llms.txt': '# Grand\n' },
      },
    });
    sites = loadSites(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes neither names, address nor canonical host from the base', () => {
    const { spec, address } = byName(sites, 'child');
    expect([spec.domain, spec.aliases, spec.canonical_host, spec.description]).toEqual([
      'child.test',
      [],
      undefined,
      undefined,
    ]);
    expect(address).not.toBe('127.0.99.1');
    expect(spec.ipv6).toBe(true);
  });

  it('merges blocks key by key, and a null removes the key or route of the base', () => {
    const { spec } = byName(sites, 'child');
    expect(spec.https).toMatchObject({ min_version: 'TLSv1.2', max_version: 'TLSv1.2', alpn: ['h2', 'http/1.1'] });
    expect(spec.http?.redirect_to_https).toBe(true);
    expect(spec.headers).toEqual({
      'strict-transport-security': 'max-age=63072000',
      'x-extra': '1',
      'reporting-endpoints': 'default="https://child.test/r"',
    });
    expect(spec.routes['/']).toEqual({ headers: { 'cache-control': 'no-store', etag: '"home"' } });
    expect(spec.routes['/gone']).toBeUndefined();
    expect(spec.routes['/new']?.body).toBe('new on child.test');
  });

  it('replaces base records of the same name and type, drops removed ones, and fills {{domain}} with its own domain', () => {
    const records = byName(sites, 'child').spec.dns.records.map((r) => [r.name, r.type, r.data]);
    expect(records).toEqual([
      ['@', 'MX', { preference: 10, exchange: 'mail.child.test' }],
      ['mail', 'A', '127.0.99.25'],
      ['@', 'TXT', ['v=spf1 -all']],
    ]);
    expect(byName(sites, 'child').spec.dns.ad).toBe(true);
    expect(byName(sites, 'base').spec.dns.records.find((r) => r.type === 'MX')?.data).toEqual({
      preference: 10,
      exchange: 'mail.base.test',
    });
  });

  it('inherits through a chain', () => {
    const { spec } = byName(sites, 'grandchild');
    expect([spec.domain, spec.dns.ad, spec.https?.max_version, spec.headers['x-extra']]).toEqual([
      'grand.test',
      false,
      'TLSv1.2',
      '1',
    ]);
    expect(spec.dns.records.find((r) => r.type === 'MX')?.data).toEqual({
      preference: 10,
      exchange: 'mail.grand.test',
    });
  });

  it('layers files: own first, then the base, with removed files and folders hidden below', async () => {
    const text = async (site: string, p: string) =>
      (await findFile(byName(sites, site).files, p))?.data.toString() ?? null;
    expect(await text('child', '/robots.txt')).toBe('User-agent: *\nDisallow: /\n');
    expect(await text('child', '/')).toContain('<title>Base</title>');
    expect(await text('child', '/llms.txt')).toBeNull();
    expect(await text('child', '/docs/')).toBeNull();
    expect(await text('child', '/docs/a.md')).toBeNull();
    expect(await text('grandchild', '/llms.txt')).toBe('# Grand\n');
    expect(await text('grandchild', '/robots.txt')).toBe('User-agent: *\nDisallow: /\n');
    expect(await text('base', '/docs')).toBe('<p>docs</p>');
    expect(await text('child', '/../base/files/llms.txt')).toBeNull();
  });
});

describe('extends: mistakes stop the world with the file', () => {
  /** The error loading these sites gives (its class and message). */
  const loadError = (sites: Record<string, { yaml: string }>): string => {
    const dir = sitesDir(sites);
    try {
      loadSites(dir);
      return 'loaded';
    } catch (err) {
      return `${err instanceof SiteConfigError ? 'SiteConfigError' : 'other'}: ${(err as Error).message}`;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('refuses an unknown base, a loop, and removals without a base', () => {
    expect(loadError({ a: { yaml: 'extends: nope\ndomain: a.test\n' } })).toMatch(
      /^SiteConfigError: .*a\/site\.yaml: extends nope, which is no site/,
    );
    expect(
      loadError({ a: { yaml: 'extends: b\ndomain: a.test\n' }, b: { yaml: 'extends: a\ndomain: b.test\n' } }),
    ).toMatch(/extends loops \(a -> b -> a\)/);
    expect(loadError({ a: { yaml: 'domain: a.test\nremove_files: [x]\n' } })).toMatch(
      /^SiteConfigError: .*a\/site\.yaml: remove_files and dns\.remove_records need extends/,
    );
  });

  it('validates the merged site strictly', () => {
    expect(
      loadError({ base: { yaml: BASE }, a: { yaml: 'extends: base\ndomain: a.test\nhttps: {certificate: bogus}\n' } }),
    ).toMatch(/a\/site\.yaml: https\.certificate/);
  });
});

describe('extends: served', () => {
  let dir: string;
  let world: World;
  beforeAll(async () => {
    dir = sitesDir({
      base: { yaml: BASE, files: BASE_FILES },
      child: { yaml: 'extends: base\ndomain: child.test\nremove_files: [llms.txt]\n' },
    });
    world = await startWorld({ sitesDir: dir });
  });
  afterAll(async () => {
    await world?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (pathname: string) => {
    const site = world.sites.find((s) => s.name === 'child')!;
    return fetchSite({
      address: site.address,
      port: world.httpsPort,
      host: site.domain,
      path: pathname,
      ca: world.caPem,
    });
  };

  it('serves inherited files naming the serving site, and 404 for a removed one', async () => {
    const robots = await get('/robots.txt');
    expect([robots.status, robots.body.toString()]).toEqual([
      200,
      'User-agent: *\nAllow: /\n\nSitemap: https://child.test/sitemap.xml\n',
    ]);
    const home = await get('/');
    expect(home.body.toString()).toContain('href="https://child.test/"');
    expect(home.headers['cache-control']).toBe('max-age=300');
    expect((await get('/llms.txt')).status).toBe(404);
  });
});
