// Mail exchangers: the MX set, the null MX of a domain that takes no mail (RFC 7505), and each exchanger's
// addresses (a dangling or aliased exchanger loses mail).
import { pointedHost } from './collect-addresses.ts';
import type { MxFacet } from './facts.ts';
import { minTtl, recordsOf, type Querier } from './query.ts';

/** Exchangers resolved one by one; a longer list is unusual and the first ones show the pattern. */
const MAX_MX_HOSTS = 10;

export async function collectMx(q: Querier, domain: string): Promise<MxFacet> {
  const response = await q.ask(domain, 'MX');
  const answers = recordsOf(response, 'MX');
  const records = answers
    .map((r) => r.data as { preference: number; exchange: string })
    .map((d) => ({ preference: d.preference, exchange: d.exchange === '' ? '.' : d.exchange }))
    .sort((x, y) => x.preference - y.preference || (x.exchange < y.exchange ? -1 : x.exchange > y.exchange ? 1 : 0));
  const exchanges = [...new Set(records.map((r) => r.exchange).filter((e) => e !== '.'))].slice(0, MAX_MX_HOSTS);
  return {
    rcode: response.rcode,
    ttl: minTtl(answers),
    records,
    null_mx: records.some((r) => r.preference === 0 && r.exchange === '.'),
    hosts: await Promise.all(exchanges.map((name) => pointedHost(q, name))),
  };
}
