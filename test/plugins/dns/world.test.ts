// The dns probe against the fixture internet: the real network layer, the good site and each dns-* site that
// breaks one thing. Facts are asserted directly, then judged by the dns and email rules: good.test must pass
// (or not need) every one, and each broken site must fail the rules written for what it breaks.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld, type SharedWorld } from '../../suite/world.ts';
import { NetError } from '../../../src/net/types.ts';
import { evaluateRule } from '../../../src/engine/evaluate.ts';
import { provider } from '../../../plugins/dns/index.ts';
import type { Observations, ProbeContext } from '../../../src/engine/types.ts';
import { catalogue, rulesReading, OBSERVED_AT, worldContext } from '../world-probe.ts';
import type { DnsObservations } from '../../../plugins/dns/facts.ts';

/** Every facet, as a run that needs them all collects them. */
type Dns = Required<DnsObservations>;

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});
const rules = rulesReading('dns');

function context(needs: (path: string) => boolean = () => true, env: Record<string, string> = {}): ProbeContext {
  return worldContext({ ...world.env, ...env }, needs);
}

async function observe(domain: string): Promise<Dns> {
  const data = await provider.collect(domain, context());
  expect(catalogue().schemas.validate('dns', data, 'complete')).toBeNull();
  return data as Dns;
}

function outcomes(domain: string, dns: unknown): Record<string, string> {
  const doc: Observations = {
    target: { domain, observed_at: OBSERVED_AT },
    probes: { dns: { status: 'ok', ms: 1 } },
    dns,
  };
  return Object.fromEntries(rules.map((r) => [r.id, evaluateRule(r, doc).outcome]));
}

const failing = (o: Record<string, string>) =>
  Object.keys(o)
    .filter((id) => o[id] === 'fail' || o[id] === 'error')
    .sort();

describe('dns probe in the fixture world', () => {
  it('observes everything good.test publishes', async () => {
    const good = world.sites.find((s) => s.name === 'good')!;
    const dns = await observe('good.test');

    expect(dns.addresses.apex).toEqual({
      name: 'good.test',
      rcode: 'NOERROR',
      cname_chain: [],
      a: [{ address: good.address, ttl: 300, policy_allowed: true }],
      aaaa: [{ address: '::1', ttl: 300, policy_allowed: true }],
    });
    expect(dns.addresses.www.a.map((a: { address: string }) => a.address)).toEqual([good.address]);

    expect(dns.ns).toMatchObject({
      zone: 'good.test',
      rcode: 'NOERROR',
      ttl: 3600,
      names: ['ns1.good.test', 'ns2.good.test'],
    });
    expect(dns.ns.hosts?.map((h) => [h.name, h.is_cname, h.ipv4.length, h.ipv6])).toEqual([
      ['ns1.good.test', false, 1, ['::1']],
      ['ns2.good.test', false, 1, ['::1']],
    ]);
    expect(dns.ns.networks).toHaveLength(3);
    expect(dns.soa).toMatchObject({
      zone: 'good.test',
      mname: 'ns1.good.test',
      refresh: 7200,
      retry: 3600,
      expire: 1209600,
      minimum: 3600,
    });

    expect(dns.mx).toMatchObject({
      rcode: 'NOERROR',
      null_mx: false,
      records: [{ preference: 10, exchange: 'mail.good.test' }],
    });
    expect(dns.mx.hosts).toEqual([
      { name: 'mail.good.test', rcode: 'NOERROR', is_cname: false, ipv4: ['127.0.10.25'], ipv6: [] },
    ]);

    expect(dns.spf).toMatchObject({
      count: 1,
      records: ['v=spf1 mx -all'],
      parsed: { all: '-', lookup_terms: 1, errors: [] },
    });
    expect(dns.spf_expansion).toEqual({
      lookups: 1,
      effective_all: '-',
      complete: true,
      targets: [
        {
          domain: 'good.test',
          via: 'mx',
          from: 'good.test',
          rcode: 'NOERROR',
          answers: 1,
          spf_count: null,
          errors: null,
        },
      ],
    });
    expect(dns.dmarc).toMatchObject({
      location: '_dmarc.good.test',
      org_domain: 'good.test',
      count: 1,
      parsed: { p: 'reject', errors: [], errors_rfc7489: [] },
    });
    expect(dns.dmarc.reports).toEqual([
      { uri: 'mailto:dmarc-reports@good.test', domain: 'good.test', external: false, authorized: null },
    ]);
    expect(dns.mta_sts).toMatchObject({ count: 1, id: '20250101T000000', errors: [] });
    expect(dns.tls_rpt).toMatchObject({ count: 1, rua: ['mailto:tls-reports@good.test'], errors: [] });
    expect(dns.bimi).toMatchObject({ count: 1, location: 'https://good.test/logo.svg', errors: [] });
    expect(dns.dkim).toEqual({ name: '_domainkey.good.test', rcode: 'NOERROR' });

    expect(dns.caa).toMatchObject({ rcode: 'NOERROR', found_at: 'good.test', iodef: ['mailto:security@good.test'] });
    expect(dns.caa.records.map((r) => [r.tag, r.issuer, r.parse_error])).toEqual([
      ['iodef', null, null],
      ['issue', 'letsencrypt.org', null],
    ]);

    expect(dns.https_rr.apex.records).toEqual([
      {
        priority: 1,
        mode: 'service',
        target: '.',
        alpn: ['h2', 'http/1.1'],
        no_default_alpn: false,
        port: null,
        ipv4hint: [],
        ipv6hint: [],
        ech: true,
        mandatory: [],
        mandatory_missing: [],
        unknown_keys: [],
        hints_unpublished: [],
        target_resolves: null,
      },
    ]);
    expect(dns.https_rr.www).toEqual({ name: 'www.good.test', rcode: 'NOERROR', decode_error: null, records: [] });

    expect(dns.dnssec).toMatchObject({
      ad: true,
      ds: [{ key_tag: 23289, algorithm: 13, digest_type: 2 }],
      dnskey: [{ flags: 257, protocol: 3, algorithm: 13 }],
      dnskey_algorithms: [13],
      ds_digest_types: [2],
    });
    expect(dns.ttl).toEqual({ address_min: 300, address_max: 300, ns: 3600, mx: 300, soa: 3600 });
  });

  it('good.test passes every dns and email rule', async () => {
    const o = outcomes('good.test', await observe('good.test'));
    expect(failing(o)).toEqual([]);
    expect(Object.values(o).filter((x) => x === 'pass').length).toBeGreaterThan(50);
  });

  it('collects only the facets the run needs', async () => {
    const asked = new Set(['dns.ns', 'dns.caa']);
    const data = await provider.collect(
      'good.test',
      context((p) => asked.has(p)),
    );
    expect(Object.keys(data as object).sort()).toEqual(['caa', 'ns']);
  });

  it('looks the nameservers up only for a run whose rules read their addresses', async () => {
    // A Quick Scan's rules read the NS names alone: as planScan answers for them.
    const quick = (p: string) => p === 'dns' || p === 'dns.ns' || p.startsWith('dns.ns.names');
    const { ns } = await provider.collect('good.test', context(quick));
    expect(ns).toMatchObject({ names: ['ns1.good.test', 'ns2.good.test'], hosts: null, networks: null });
    const full = await provider.collect(
      'good.test',
      context((p) => p === 'dns.ns' || p.startsWith('dns.ns.')),
    );
    expect(full.ns?.hosts?.map((h) => h.name)).toEqual(['ns1.good.test', 'ns2.good.test']);
    expect(full.ns?.networks).toHaveLength(3);
  });

  it('finds the enclosing zone for a name that is not a zone apex', async () => {
    const dns = await observe('www.good.test');
    expect(dns.soa.zone).toBe('good.test');
    expect(dns.ns).toMatchObject({ zone: 'good.test', names: ['ns1.good.test', 'ns2.good.test'] });
    expect(dns.caa.found_at).toBe('good.test');
    expect(dns.dmarc.location).toBe('_dmarc.good.test');
  });

  it('records NXDOMAIN and SERVFAIL as facts, and lets a silent resolver time the probe out', async () => {
    const nx = await observe('nxdomain.test');
    expect(nx.addresses.apex).toEqual({ name: 'nxdomain.test', rcode: 'NXDOMAIN', cname_chain: [], a: [], aaaa: [] });
    expect(nx.ns).toMatchObject({ rcode: 'NXDOMAIN', names: [], hosts: [] });
    expect(nx.dmarc.rcode).toBe('NXDOMAIN');
    expect(failing(outcomes('nxdomain.test', nx))).toEqual(
      expect.arrayContaining(['dns.ns.at_least_two', 'dns.records.apex_resolves']),
    );

    const sf = await observe('dns-servfail.test');
    expect(sf.addresses.apex.rcode).toBe('SERVFAIL');
    expect(sf.spf).toMatchObject({ rcode: 'SERVFAIL', count: 0 });
    expect(outcomes('dns-servfail.test', sf)['dns.records.apex_resolves']).toBe('fail');

    const silent = provider.collect(
      'dns-timeout.test',
      context(() => true, { DVS_DNS_TIMEOUT_MS: '300' }),
    );
    await expect(silent).rejects.toBeInstanceOf(NetError);
    await expect(silent).rejects.toMatchObject({ code: 'dns_timeout' });
  });
});

describe('broken dns sites', () => {
  const judged = async (domain: string) => {
    const dns = await observe(domain);
    return { dns, o: outcomes(domain, dns) };
  };

  it('dns-single-ns: one nameserver', async () => {
    const { dns, o } = await judged('dns-single-ns.test');
    expect(dns.ns.names).toEqual(['ns1.dns-single-ns.test']);
    expect(o['dns.ns.at_least_two']).toBe('fail');
    expect(o['dns.ns.ipv4_present']).toBe('fail');
    expect(o['dns.records.apex_resolves']).toBe('pass');
  });

  it('dns-no-email-auth: mail without SPF or DMARC', async () => {
    const { dns, o } = await judged('dns-no-email-auth.test');
    expect(dns.spf).toMatchObject({ count: 0, parsed: null });
    expect(dns.dmarc).toMatchObject({ count: 0, location: null, parsed: null });
    expect(dns.dkim.rcode).toBe('NXDOMAIN');
    expect([o['email.spf.present'], o['email.dmarc.present'], o['email.dkim.selectors_exist']]).toEqual([
      'fail',
      'fail',
      'fail',
    ]);
    expect(o['email.dmarc.policy_enforcing']).toBe('not_applicable');
  });

  it('dns-weak-dmarc: p=none, sp=none, pct=20, neutral SPF, unauthorised report destination', async () => {
    const { dns, o } = await judged('dns-weak-dmarc.test');
    expect(dns.dmarc.parsed).toMatchObject({ p: 'none', sp: 'none', pct: 20, errors: [] });
    expect(dns.dmarc.reports).toEqual([
      {
        uri: 'mailto:dmarc@reports.dns-no-caa.test',
        domain: 'reports.dns-no-caa.test',
        external: true,
        authorized: false,
      },
    ]);
    expect(dns.spf_expansion.effective_all).toBe('?');
    for (const id of [
      'email.dmarc.policy_enforcing',
      'email.dmarc.subdomain_policy_enforcing',
      'email.dmarc.pct_full',
      'email.dmarc.external_reports_authorized',
      'email.spf.all_strict',
    ]) {
      expect(o[id], id).toBe('fail');
    }
    expect(o['email.dmarc.syntax_valid']).toBe('pass');
  });

  it('dns-no-caa: no CAA anywhere up to the registrable domain', async () => {
    const { dns, o } = await judged('dns-no-caa.test');
    expect(dns.caa).toEqual({ rcode: 'NOERROR', found_at: null, records: [], issue: [], issuewild: [], iodef: [] });
    expect(o['dns.caa.present']).toBe('fail');
    expect(o['dns.caa.issue_defined']).toBe('not_applicable');
    expect(o['dns.dnssec.ds_published']).toBe('fail');
  });

  it('dns-caa-broken: unknown critical tag and an issue value that does not parse', async () => {
    const { dns, o } = await judged('dns-caa-broken.test');
    expect(dns.caa.records.map((r) => [r.tag, r.critical, r.parse_error])).toEqual([
      ['iodef', false, null],
      ['issue', false, '"lets encrypt" breaks issuer-domain-name: not a domain name'],
      ['issuer-policy', true, '"issuer-policy" breaks tag: letters and digits only'],
    ]);
    expect([o['dns.caa.critical_tags_known'], o['dns.caa.values_parse'], o['dns.caa.issue_defined']]).toEqual([
      'fail',
      'fail',
      'pass',
    ]);
  });

  it('dns-dnssec-stale-ds: DS without DNSKEY', async () => {
    const { dns, o } = await judged('dns-dnssec-stale-ds.test');
    expect(dns.dnssec).toMatchObject({ ds: [{ key_tag: 4711, algorithm: 13, digest_type: 2 }], dnskey: [], ad: false });
    expect(o['dns.dnssec.delegation_consistent']).toBe('fail');
    expect(o['dns.dnssec.ds_published']).toBe('pass');
  });

  it('dns-dnssec-legacy: RSA/SHA-1 keys and a SHA-1 DS', async () => {
    const { dns, o } = await judged('dns-dnssec-legacy.test');
    expect(dns.dnssec).toMatchObject({ ad: true, dnskey_algorithms: [5], ds_algorithms: [5], ds_digest_types: [1] });
    for (const id of [
      'dns.dnssec.algorithms_current',
      'dns.dnssec.ds_algorithms_current',
      'dns.dnssec.ds_digest_current',
    ])
      expect(o[id], id).toBe('fail');
    expect([o['dns.dnssec.validated'], o['dns.dnssec.delegation_consistent'], o['dns.dnssec.ksk_present']]).toEqual([
      'pass',
      'pass',
      'pass',
    ]);
  });

  it('dns-dangling-www: www aliases a name that does not exist', async () => {
    const { dns, o } = await judged('dns-dangling-www.test');
    expect(dns.addresses.www).toMatchObject({
      rcode: 'NXDOMAIN',
      cname_chain: ['retired-app.cloud-gone.test'],
      a: [],
      aaaa: [],
    });
    expect(o['dns.records.www_cname_target_resolves']).toBe('fail');
    expect(o['dns.records.www_resolves']).toBe('fail');
  });

  it('dns-apex-cname: the apex is an alias', async () => {
    const { dns, o } = await judged('dns-apex-cname.test');
    expect(dns.addresses.apex.cname_chain).toEqual(['dns-apex-cname-origin.test']);
    expect(o['dns.records.apex_not_cname']).toBe('fail');
    expect(o['dns.records.apex_resolves']).toBe('pass');
  });

  it('dns-spf-lookups: eleven lookups, a void include and a, mx and exists terms naming nothing', async () => {
    const { dns, o } = await judged('dns-spf-lookups.test');
    expect(dns.spf_expansion).toMatchObject({ lookups: 11, effective_all: '-', complete: true });
    // Ten lookups asked (the eleventh term, ptr, needs the sender's address); names without records are void.
    expect(dns.spf_expansion.targets.map((t) => [t.via, t.domain, t.rcode, t.answers, t.spf_count])).toEqual([
      ['include', '_s1.dns-spf-lookups.test', 'NOERROR', 1, 1],
      ['include', '_s2.dns-spf-lookups.test', 'NOERROR', 1, 1],
      ['include', '_spf.gone-provider.test', 'NXDOMAIN', 0, 0],
      ['a', '_s1.dns-spf-lookups.test', 'NOERROR', 0, null],
      ['mx', '_s1.dns-spf-lookups.test', 'NOERROR', 0, null],
      ['a', 'a1.dns-spf-lookups.test', 'NXDOMAIN', 0, null],
      ['mx', 'm1.dns-spf-lookups.test', 'NXDOMAIN', 0, null],
      ['a', 'a2.dns-spf-lookups.test', 'NXDOMAIN', 0, null],
      ['mx', 'm2.dns-spf-lookups.test', 'NXDOMAIN', 0, null],
      ['exists', 'e2.dns-spf-lookups.test', 'NXDOMAIN', 0, null],
    ]);
    expect([
      o['email.spf.lookup_limit'],
      o['email.spf.include_targets_published'],
      o['email.spf.void_lookup_limit'],
      o['email.spf.included_records_valid'],
    ]).toEqual(['fail', 'fail', 'fail', 'pass']);
  });

  it('dns-spf-macros: redirect= and macros are valid SPF and pass every rule', async () => {
    const { dns, o } = await judged('dns-spf-macros.test');
    expect(dns.spf.parsed).toMatchObject({ redirect: '_spf.dns-spf-macros.test', all: null, errors: [] });
    expect(dns.spf_expansion).toMatchObject({ lookups: 3, effective_all: '-', complete: true });
    expect(dns.spf_expansion.targets.map((t) => [t.via, t.domain, t.rcode])).toEqual([
      ['redirect', '_spf.dns-spf-macros.test', 'NOERROR'],
      ['mx', 'dns-spf-macros.test', 'NOERROR'],
      ['exists', '%{ir}.%{l1r+-}._allow.dns-spf-macros.test', null],
    ]);
    expect(failing(o)).toEqual([]);
  });

  it('dns-spf-include-broken: a syntax error inside an included record is reported upward', async () => {
    const { dns, o } = await judged('dns-spf-include-broken.test');
    expect(dns.spf.parsed?.errors).toEqual([]);
    expect(dns.spf_expansion.targets[1]).toMatchObject({
      via: 'include',
      domain: '_spf.dns-spf-include-broken.test',
      spf_count: 1,
      errors: ['"a:mail" breaks domain-end: "mail" must end in "." and a top label, or in a macro'],
    });
    expect(failing(o)).toEqual(['email.spf.included_records_valid']);
  });

  it('dns-spf-duplicate: two SPF records', async () => {
    const { dns, o } = await judged('dns-spf-duplicate.test');
    expect(dns.spf).toMatchObject({ count: 2, parsed: null, bytes: null });
    expect(o['email.spf.single']).toBe('fail');
    expect(o['email.spf.all_strict']).toBe('not_applicable');
  });

  it('dns-https-rr-stale: a stale address hint and an alias to nowhere', async () => {
    const { dns, o } = await judged('dns-https-rr-stale.test');
    expect(dns.https_rr.apex.records[0]).toMatchObject({
      mode: 'service',
      alpn: ['h3'],
      ipv4hint: ['127.0.11.99'],
      hints_unpublished: ['127.0.11.99'],
    });
    expect(dns.https_rr.www.records[0]).toMatchObject({
      mode: 'alias',
      target: 'edge.gone-cdn.test',
      target_resolves: false,
    });
    expect([
      o['dns.svcb.hints_match_addresses'],
      o['dns.svcb.targets_resolve'],
      o['dns.svcb.https_rr_decodes'],
    ]).toEqual(['fail', 'fail', 'pass']);
  });

  it('dns-mx-broken: a dangling and an aliased exchanger', async () => {
    const { dns, o } = await judged('dns-mx-broken.test');
    expect(dns.mx.hosts.map((h) => [h.name, h.rcode, h.is_cname, h.ipv4])).toEqual([
      ['mx.gone-mail.test', 'NXDOMAIN', false, []],
      ['mail.dns-mx-broken.test', 'NOERROR', true, ['127.0.11.26']],
    ]);
    expect([o['email.mx.hosts_resolve'], o['email.mx.hosts_not_cname']]).toEqual(['fail', 'fail']);
  });

  it('dns-null-mx: a domain without mail, locked down', async () => {
    const { dns, o } = await judged('dns-null-mx.test');
    expect(dns.mx).toMatchObject({ null_mx: true, records: [{ preference: 0, exchange: '.' }], hosts: [] });
    expect([o['email.mx.null_mx_alone'], o['email.mx.nonmail_spf_locked'], o['email.mx.nonmail_dmarc_reject']]).toEqual(
      ['pass', 'pass', 'pass'],
    );
    expect([o['email.mta_sts.published'], o['email.dkim.selectors_exist']]).toEqual([
      'not_applicable',
      'not_applicable',
    ]);
  });
});
