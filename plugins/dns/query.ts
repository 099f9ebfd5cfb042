// One scan's DNS questions: each (name, type, DO) asked once however many facets need it, so facets can be
// written independently without multiplying traffic.
//
// Timeouts follow one rule. A question about the domain's own names (`ask`) that gets no answer lets the
// NetError propagate: the resolver did not answer about the domain, so the engine marks the probe `timeout`
// and the rules that need it `error`. A question about a name the domain merely points to (`askPointed`:
// nameserver and mail hosts, SPF includes, report destinations, alias targets) records rcode TIMEOUT, a fact
// about that target. NXDOMAIN, SERVFAIL and REFUSED are always facts, never failures of the probe.
import { NetError, type DnsRecord, type DnsRecordType, type DnsResponse, type Net } from '../../src/net/types.ts';

export interface Querier {
  ask(name: string, type: DnsRecordType, opts?: { dnssecOk?: boolean }): Promise<DnsResponse>;
  askPointed(name: string, type: DnsRecordType): Promise<DnsResponse>;
}

const TIMED_OUT: DnsResponse = {
  rcode: 'TIMEOUT',
  flags: { ad: false, aa: false, tc: false },
  answers: [],
  authorities: [],
  server: '',
};

export function createQuerier(net: Net, signal: AbortSignal): Querier {
  const asked = new Map<string, Promise<DnsResponse>>();
  const ask: Querier['ask'] = (name, type, opts = {}) => {
    const key = `${name}|${type}|${opts.dnssecOk === true}`;
    let pending = asked.get(key);
    if (!pending) {
      pending = net.dns(name, type, { signal, dnssecOk: opts.dnssecOk === true });
      asked.set(key, pending);
    }
    return pending;
  };
  return {
    ask,
    async askPointed(name, type) {
      try {
        return await ask(name, type);
      } catch (err) {
        if (err instanceof NetError && err.code === 'dns_timeout' && !signal.aborted) return TIMED_OUT;
        throw err;
      }
    },
  };
}

/** Answer records of one type (a CNAME chain's aliases are left out). */
export function recordsOf(response: DnsResponse, type: string): DnsRecord[] {
  return response.answers.filter((r) => r.type === type);
}

/** TXT answers as their strings. */
export function txtOf(response: DnsResponse): string[][] {
  return recordsOf(response, 'TXT').map((r) => r.data as string[]);
}

/** The lowest TTL of a set of records (an RRset shares one TTL; a cache may return them unevenly). */
export function minTtl(records: readonly DnsRecord[]): number | null {
  return records.length === 0 ? null : Math.min(...records.map((r) => r.ttl));
}

/** Distinct string data of records, sorted. */
export function sortedData(records: readonly DnsRecord[]): string[] {
  return [...new Set(records.map((r) => String(r.data)))].sort();
}
