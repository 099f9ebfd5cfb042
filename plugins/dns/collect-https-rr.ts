// HTTPS records (RFC 9460) at the apex and at www: decoded parameters, the mandatory keys they lack, and
// whether their address hints and alias targets match what the DNS publishes.
import type { SvcbData } from '../../src/net/svcb-codec.ts';
import { NetError } from '../../src/net/types.ts';
import type { HttpsRrFacet, HttpsRrSet, SvcbRecordFact } from './facts.ts';
import { recordsOf, sortedData, type Querier } from './query.ts';

const isAbort = (err: unknown): boolean =>
  (err as Error)?.name === 'AbortError' || (err as Error)?.name === 'TimeoutError';

/** Addresses of the host a record points to: the owner itself for target ".", else the target. */
async function addressesOf(q: Querier, owner: string, target: string): Promise<string[]> {
  const own = target === '.';
  const host = own ? owner : target;
  const [a, aaaa] = await Promise.all(
    own ? [q.ask(host, 'A'), q.ask(host, 'AAAA')] : [q.askPointed(host, 'A'), q.askPointed(host, 'AAAA')],
  );
  return [...sortedData(recordsOf(a, 'A')), ...sortedData(recordsOf(aaaa, 'AAAA'))];
}

async function recordFact(q: Querier, owner: string, d: SvcbData): Promise<SvcbRecordFact> {
  const present = new Set(
    Object.keys(d)
      .filter((k) => k !== 'priority' && k !== 'target')
      .map((k) => k.replace(/_/g, '-')),
  );
  const hints = [...(d.ipv4hint ?? []), ...(d.ipv6hint ?? [])];
  const needAddresses = hints.length > 0 || d.target !== '.';
  const addresses = needAddresses ? new Set(await addressesOf(q, owner, d.target)) : new Set<string>();
  return {
    priority: d.priority,
    mode: d.priority === 0 ? 'alias' : 'service',
    target: d.target,
    alpn: d.alpn ?? [],
    no_default_alpn: d.no_default_alpn === true,
    port: d.port ?? null,
    ipv4hint: d.ipv4hint ?? [],
    ipv6hint: d.ipv6hint ?? [],
    ech: d.ech === true,
    mandatory: d.mandatory ?? [],
    mandatory_missing: (d.mandatory ?? []).filter((k) => !present.has(k)),
    unknown_keys: [...present].filter((k) => /^key\d+$/.test(k)).sort(),
    hints_unpublished: hints.filter((h) => !addresses.has(h)),
    target_resolves: d.target === '.' ? null : addresses.size > 0,
  };
}

async function httpsSet(q: Querier, name: string): Promise<HttpsRrSet> {
  let response;
  try {
    response = await q.ask(name, 'HTTPS');
  } catch (err) {
    // src/net decodes SvcParams; RDATA it cannot decode is a fact about the record, not a probe failure.
    if (err instanceof NetError || isAbort(err)) throw err;
    return { name, rcode: null, decode_error: (err as Error).message, records: [] };
  }
  const data = recordsOf(response, 'HTTPS')
    .map((r) => r.data as SvcbData)
    .sort((x, y) => x.priority - y.priority || (x.target < y.target ? -1 : x.target > y.target ? 1 : 0));
  return {
    name,
    rcode: response.rcode,
    decode_error: null,
    records: await Promise.all(data.map((d) => recordFact(q, name, d))),
  };
}

export async function collectHttpsRr(q: Querier, domain: string): Promise<HttpsRrFacet> {
  const [apex, www] = await Promise.all([httpsSet(q, domain), httpsSet(q, `www.${domain}`)]);
  return { apex, www };
}
