// One scan's DNS: each question (name, type, transport) goes to the resolver once, and its answer or failure is
// kept for the scan, so the pre-scan check, the resolver and every probe share one set of queries.
//
// Every question is sent with the DO bit, so the DNSSEC facet's apex A question and the resolver's are one
// query; a caller that did not ask for DNSSEC records gets the answer without them, as a server answers a
// question without DO (RFC 4035 section 3.2.1: no RRSIG, NSEC or NSEC3 unless that type was asked for).
//
// The shared query (shared-operation.ts) is cancelled only when every caller has given up, and then forgotten,
// so a later caller asks afresh: no socket outlives the scan, and one caller giving up never fails another.
import type { DnsClient, DnsQueryOptions } from './dns-client.ts';
import { normaliseName } from '../lib/domain-name.ts';
import { wireTypeName } from './dns-records.ts';
import { callerAborted } from './on-abort.ts';
import { shareOperation, type SharedOperation } from './shared-operation.ts';
import type { DnsRecord, DnsRecordType, DnsResponse } from './types.ts';

const DNSSEC_TYPES = new Set(['RRSIG', 'NSEC', 'NSEC3']);

function withoutDnssec(response: DnsResponse, asked: string): DnsResponse {
  const keep = (r: DnsRecord): boolean => r.type === asked || !DNSSEC_TYPES.has(r.type);
  return { ...response, answers: response.answers.filter(keep), authorities: response.authorities.filter(keep) };
}

export function memoiseDns(client: DnsClient): DnsClient {
  const asked = new Map<string, SharedOperation<DnsResponse>>();

  function start(key: string, name: string, type: DnsRecordType, opts: DnsQueryOptions): SharedOperation<DnsResponse> {
    const shared = shareOperation(
      (signal) => client.query(name, type, { dnssecOk: true, tcp: opts.tcp === true, signal }),
      () => {
        if (asked.get(key) === shared) asked.delete(key);
      },
    );
    asked.set(key, shared);
    return shared;
  }

  return {
    query(name, type, opts = {}) {
      const { signal } = opts;
      if (signal?.aborted) return Promise.reject(callerAborted());
      const key = `${normaliseName(name)}|${wireTypeName(type)}|${opts.tcp === true}`;
      const signed = (asked.get(key) ?? start(key, name, type, opts)).wait(signal);
      return opts.dnssecOk === true ? signed : signed.then((r) => withoutDnssec(r, wireTypeName(type)));
    },
  };
}
