// The reachability probe against the fixture internet: good.test answers alike on IPv4 and IPv6 and passes every
// reachability rule; the reach-* sites break one address each and fail the rules about it.
import { beforeAll, describe, expect, it } from 'vitest';
import { provider } from '../../../plugins/reachability/index.ts';
import type { AddressFacts, HandshakeFacts, HostFacts } from '../../../plugins/reachability/facts.ts';
import { evaluateRule } from '../../../src/engine/evaluate.ts';
import { catalogue, rulesReading, OBSERVED_AT, worldContext } from '../world-probe.ts';
import type { Outcome } from '../../../src/engine/types.ts';
import { useWorld, type SharedWorld } from '../../suite/world.ts';
import { anyString } from '../../helpers/typed-json.ts';
import { expectEvery } from '../../helpers/every.ts';
import { createNet } from '../../../src/net/index.ts';
import { loadConfig } from '../../../src/lib/config.ts';

type Facts = { apex?: HostFacts; www?: HostFacts; apex_tls?: HandshakeFacts };

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});
const rules = rulesReading('reachability');

async function scan(domain: string, needs: (path: string) => boolean = () => true): Promise<Facts> {
  return provider.collect(domain, worldContext(world.env, needs));
}

/** The rules' outcomes on the facts, once the facts are shown to match the schema exactly. */
function outcomes(domain: string, reachability: Facts): Record<string, Outcome> {
  expect(catalogue().schemas.validate('reachability', reachability, 'complete')).toBeNull();
  const doc = {
    target: { domain, observed_at: OBSERVED_AT },
    probes: { reachability: { status: 'ok', ms: 0 } },
    reachability,
  };
  return Object.fromEntries(rules.map((r) => [r.id, evaluateRule(r, doc).outcome]));
}

const byAddress = (host: HostFacts | undefined, address: string): AddressFacts | undefined =>
  host?.addresses.find((a) => a.address === address);

describe('reachability probe on the fixture internet', () => {
  it('good.test: the same certificate, status and page on IPv4 and IPv6, and every rule passes', async () => {
    const facts = await scan('good.test');
    const apex = facts.apex!;
    expect(apex).toMatchObject({
      host: 'good.test',
      dns_error: null,
      published_v4: 1,
      published_v6: 1,
      https_statuses: [200],
    });
    expect(apex.addresses.map((a) => [a.address, a.family, a.probed])).toEqual([
      ['127.0.10.1', 4, true],
      ['::1', 6, true],
    ]);
    for (const a of apex.addresses) {
      expect(a.tls).toMatchObject({
        error: null,
        protocol: 'TLSv1.3',
        alpn: 'h2',
        certificate_valid: true,
        authorization_error: null,
      });
      expect(a.https).toMatchObject({ status: 200, error: null, location: null, truncated: false });
      expect(a.http).toEqual({ status: 301, error: null, location: `https://good.test:${world.httpsPort}/` });
    }
    expect(apex.leaf_sha256s).toHaveLength(1);
    expect(apex.leaf_sha256s[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(apex.body_sha256s).toHaveLength(1);

    // www redirects to the canonical host on both addresses, with the same certificate as the apex.
    const www = facts.www!;
    expect(www).toMatchObject({
      host: 'www.good.test',
      published_v4: 1,
      published_v6: 1,
      https_statuses: [301],
      leaf_sha256s: apex.leaf_sha256s,
    });
    for (const a of www.addresses)
      expect(a.https).toMatchObject({ status: 301, location: `https://good.test:${world.httpsPort}/` });

    const results = outcomes('good.test', facts);
    expect(Object.keys(results).length).toBeGreaterThanOrEqual(8);
    expect(Object.entries(results).filter(([, o]) => o !== 'pass')).toEqual([]);
  });

  it('reach-dead-address: the second A record leads nowhere, and the every-address rules say so', async () => {
    const facts = await scan('reach-dead-address.test');
    const apex = facts.apex!;
    expect(apex).toMatchObject({ published_v4: 2, published_v6: 1, https_statuses: [200] });
    expect(byAddress(apex, '127.0.61.1')).toMatchObject({
      probed: true,
      tls: { error: null, certificate_valid: true },
      https: { status: 200 },
    });
    expect(byAddress(apex, '127.99.99.99')).toEqual({
      address: '127.99.99.99',
      family: 4,
      probed: true,
      skipped: null,
      tls: {
        error: 'connect_refused',
        protocol: null,
        alpn: null,
        certificate_valid: null,
        authorization_error: null,
        leaf_sha256: null,
      },
      https: {
        status: null,
        error: 'connect_refused',
        location: null,
        body_sha256: null,
        body_bytes: null,
        truncated: null,
      },
      http: { status: null, error: 'connect_refused', location: null },
    });
    const results = outcomes('reach-dead-address.test', facts);
    expect(results).toMatchObject({
      'http.reachability.tls_every_address': 'fail',
      'http.reachability.certificate_every_address': 'pass',
      'http.reachability.ipv4_https': 'pass',
      'http.reachability.ipv6_https': 'pass',
      'http.reachability.same_certificate': 'pass',
      'http.reachability.www_every_address': 'pass',
    });
  });

  it('reach-dead-address: the handshakes alone (a Quick Scan) see the dead address, as the full scan does', async () => {
    const quick = await scan('reach-dead-address.test', (p) => p === 'reachability.apex_tls');
    expect(Object.keys(quick)).toEqual(['apex_tls']);
    const handshakes = quick.apex_tls!;
    expect(handshakes).toMatchObject({ published_v4: 2, published_v6: 1, leaf_sha256s: [anyString()] });
    expect(handshakes.addresses.map((a) => [a.address, a.tls?.error ?? null])).toEqual([
      ['127.0.61.1', null],
      ['127.99.99.99', 'connect_refused'],
      ['::1', null],
    ]);
    expect(outcomes('reach-dead-address.test', quick)).toMatchObject({
      'http.reachability.tls_every_address': 'fail',
      'http.reachability.certificate_every_address': 'pass',
    });
    const full = await scan('reach-dead-address.test');
    const tlsOf = (f: HandshakeFacts | HostFacts) =>
      f.addresses.map((a) => ({ address: a.address, protocol: a.tls?.protocol, error: a.tls?.error }));
    expect(tlsOf(full.apex_tls!)).toEqual(tlsOf(full.apex!));
    expect(tlsOf(handshakes)).toEqual(tlsOf(full.apex!));
    expectEvery(full.apex_tls!.addresses, (a) => !('https' in a) && !('http' in a), 'handshake-only addresses');
  });

  it('reach-v6-unserved: the AAAA record points at a server that does not know the site', async () => {
    const facts = await scan('reach-v6-unserved.test');
    const apex = facts.apex!;
    expect(apex).toMatchObject({ published_v4: 1, published_v6: 1 });
    expect(byAddress(apex, '127.0.61.2')).toMatchObject({
      tls: { certificate_valid: true },
      https: { status: 200 },
      http: { status: 301 },
    });
    const v6 = byAddress(apex, '::1')!;
    expect(v6.family).toBe(6);
    expect(v6.tls?.protocol).toBeNull();
    expect(v6.tls?.error).toEqual(expect.any(String));
    expect(v6.https).toMatchObject({ status: null, error: anyString() });
    expect(v6.http?.status).not.toBe(301);
    const results = outcomes('reach-v6-unserved.test', facts);
    expect(results).toMatchObject({
      'http.reachability.tls_every_address': 'fail',
      'http.reachability.ipv6_https': 'fail',
      'http.reachability.ipv4_https': 'pass',
      'http.reachability.plain_http_redirects_every_address': 'fail',
      'http.reachability.www_every_address': 'pass',
    });
  });

  it('nxdomain.test: the lookup failure is the fact, and no address rule applies', async () => {
    const facts = await scan('nxdomain.test');
    expect(facts.apex).toEqual({
      host: 'nxdomain.test',
      dns_error: 'dns_nxdomain',
      published_v4: 0,
      published_v6: 0,
      addresses: [],
      leaf_sha256s: [],
      https_statuses: [],
      body_sha256s: [],
    });
    const results = outcomes('nxdomain.test', facts);
    expectEvery(Object.entries(results), ([, o]) => o === 'not_applicable', 'every rule not applicable');
  });

  it('observes the handshakes of the connections its requests use, and sets up none of its own', async () => {
    const good = world.sites.find((s) => s.name === 'good')!;
    const count = async (needs: (path: string) => boolean) => {
      const net = createNet(loadConfig(world.env), { trace: true });
      try {
        const facts: Facts = await provider.collect('good.test', { ...worldContext(world.env, needs), net });
        const bare = net.trace().filter((op) => op.kind === 'tls' || op.kind === 'tcp').length;
        const kept = net.httpConnections().map((c) => `${c.connections} ${c.origin} at ${c.address}`);
        return { facts, bare, kept: kept.sort() };
      } finally {
        await net.close();
      }
    };
    const origin = (scheme: 'http' | 'https', host: string) =>
      new URL(world.url('good', '/', scheme).replace('//good.test', `//${host}`)).origin;
    const https = origin('https', 'good.test');

    // A Quick Scan's handshakes: one connection to each address, kept for the scan's requests to it.
    const quick = await count((p) => p === 'reachability.apex_tls');
    expect(quick.bare).toBe(0);
    expect(quick.kept).toEqual([`1 ${https} at ${good.address}`, `1 ${https} at ::1`].sort());
    expect(quick.facts.apex_tls?.addresses.map((a) => a.tls?.certificate_valid)).toEqual([true, true]);

    // A Full Validation's: the requests to each address and its handshake share one connection.
    const full = await count(() => true);
    expect(full.bare).toBe(0);
    expect(full.kept).toEqual(
      ['good.test', 'www.good.test']
        .flatMap((host) => [origin('https', host), origin('http', host)])
        .flatMap((o) => [`1 ${o} at ${good.address}`, `1 ${o} at ::1`])
        .sort(),
    );
    expect(full.facts.apex_tls?.addresses.map((a) => a.tls)).toEqual(full.facts.apex?.addresses.map((a) => a.tls));
  });

  it('collects only the facets a run needs', async () => {
    expect(Object.keys(await scan('good.test', (p) => p === 'reachability.www'))).toEqual(['www']);
    expect(Object.keys(await scan('good.test', (p) => p === 'reachability.apex_tls'))).toEqual(['apex_tls']);
    expect(await scan('good.test', () => false)).toEqual({});
  });
});
