// DNSSEC as a recursive resolver shows it: the DS set at the parent, the DNSKEY set at the apex, the AD bit
// on an apex answer asked with DO, and the validity windows of the signatures that come with the answers.
// Whether the chain is bogus cannot be told apart from other failures without the CD bit (see LEFT-OUT.md).
import type { DnsRecord } from '../../src/net/types.ts';
import type { DnssecFacet, RrsigFact } from './facts.ts';
import { recordsOf, type Querier } from './query.ts';

interface RrsigData {
  type_covered: string;
  algorithm: number;
  key_tag: number;
  signer_name: string;
  inception: number;
  expiration: number;
}

/** RRSIG times are seconds since the epoch; the observations use ISO 8601 UTC without fractions. */
const isoSeconds = (s: number): string => new Date(s * 1000).toISOString().replace('.000Z', 'Z');

const uniqueSorted = (values: number[]): number[] => [...new Set(values)].sort((a, b) => a - b);

function rrsigFacts(records: DnsRecord[]): RrsigFact[] {
  return records
    .filter((r) => r.type === 'RRSIG')
    .map((r) => r.data as RrsigData)
    .map((d) => ({
      type_covered: d.type_covered,
      algorithm: d.algorithm,
      key_tag: d.key_tag,
      signer: d.signer_name,
      inception: isoSeconds(d.inception),
      expiration: isoSeconds(d.expiration),
    }))
    .sort((x, y) =>
      `${x.type_covered}|${x.key_tag}|${x.expiration}` < `${y.type_covered}|${y.key_tag}|${y.expiration}` ? -1 : 1,
    );
}

export async function collectDnssec(q: Querier, domain: string): Promise<DnssecFacet> {
  const [ds, dnskey, a] = await Promise.all([
    q.ask(domain, 'DS', { dnssecOk: true }),
    q.ask(domain, 'DNSKEY', { dnssecOk: true }),
    q.ask(domain, 'A', { dnssecOk: true }),
  ]);
  const dsSet = recordsOf(ds, 'DS')
    .map((r) => r.data as { key_tag: number; algorithm: number; digest_type: number })
    .map((d) => ({ key_tag: d.key_tag, algorithm: d.algorithm, digest_type: d.digest_type }))
    .sort((x, y) => x.key_tag - y.key_tag || x.algorithm - y.algorithm || x.digest_type - y.digest_type);
  const keys = recordsOf(dnskey, 'DNSKEY')
    .map((r) => r.data as { flags: number; protocol: number; algorithm: number })
    .map((d) => ({ flags: d.flags, protocol: d.protocol, algorithm: d.algorithm }))
    .sort((x, y) => x.flags - y.flags || x.algorithm - y.algorithm);
  const rrsigs = rrsigFacts([...ds.answers, ...dnskey.answers, ...a.answers]);
  const expirations = rrsigs.map((s) => s.expiration).sort();
  const inceptions = rrsigs.map((s) => s.inception).sort();
  return {
    ds_rcode: ds.rcode,
    ds: dsSet,
    dnskey_rcode: dnskey.rcode,
    dnskey: keys,
    ad: a.flags.ad,
    ds_algorithms: uniqueSorted(dsSet.map((d) => d.algorithm)),
    ds_digest_types: uniqueSorted(dsSet.map((d) => d.digest_type)),
    dnskey_algorithms: uniqueSorted(keys.map((k) => k.algorithm)),
    rrsigs,
    rrsig_earliest_expiration: expirations[0] ?? null,
    rrsig_latest_inception: inceptions[inceptions.length - 1] ?? null,
  };
}
