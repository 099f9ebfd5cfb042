// One scan's DNS: each question (name, type, transport) goes to the resolver once, and its answer or failure is
// kept for the scan, so the pre-scan check, the resolver and every probe share one set of queries.
//
// Every question is sent with the DO bit, so the DNSSEC facet's apex A question and the resolver's are one
// query; a caller that did not ask for DNSSEC records gets the answer without them, as a server answers a
// question without DO (RFC 4035 section 3.2.1: no RRSIG, NSEC or NSEC3 unless that type was asked for).
//
// The shared query runs under none of its callers' signals: each waits under its own. It is cancelled only when
// every caller has given up (and then forgotten, so a later caller asks afresh): no socket outlives the scan,
// and one caller giving up never fails another.
import type { DnsClient, DnsQueryOptions } from './dns-client.ts';
import { normaliseName, wireTypeName } from './dns-records.ts';
import { onAbort } from './on-abort.ts';
import { NetError, type DnsRecord, type DnsRecordType, type DnsResponse } from './types.ts';

interface Shared {
  /** The answer with its DNSSEC records, and as a question without DO would get it. */
  signed: Promise<DnsResponse>;
  plain: Promise<DnsResponse>;
  settled: boolean;
  /** Callers that may still give up; at zero before the answer, the query is cancelled. */
  waiting: number;
  cancel: AbortController;
}

const DNSSEC_TYPES = new Set(['RRSIG', 'NSEC', 'NSEC3']);

function withoutDnssec(response: DnsResponse, asked: string): DnsResponse {
  const keep = (r: DnsRecord): boolean => r.type === asked || !DNSSEC_TYPES.has(r.type);
  return { ...response, answers: response.answers.filter(keep), authorities: response.authorities.filter(keep) };
}

const aborted = (): NetError => new NetError('aborted', 'the caller aborted the operation');

export function memoiseDns(client: DnsClient): DnsClient {
  const asked = new Map<string, Shared>();

  function start(key: string, name: string, type: DnsRecordType, opts: DnsQueryOptions): Shared {
    const cancel = new AbortController();
    const signed = client.query(name, type, { dnssecOk: true, tcp: opts.tcp === true, signal: cancel.signal });
    const shared: Shared = {
      signed,
      plain: signed.then((r) => withoutDnssec(r, wireTypeName(type))),
      settled: false,
      waiting: 0,
      cancel,
    };
    const settle = (): void => {
      shared.settled = true;
    };
    shared.plain.then(settle, settle);
    asked.set(key, shared);
    return shared;
  }

  function leave(key: string, shared: Shared): void {
    shared.waiting -= 1;
    if (shared.waiting > 0 || shared.settled) return;
    if (asked.get(key) === shared) asked.delete(key);
    shared.cancel.abort();
  }

  return {
    query(name, type, opts = {}) {
      const { signal } = opts;
      if (signal?.aborted) return Promise.reject(aborted());
      const key = `${normaliseName(name)}|${wireTypeName(type)}|${opts.tcp === true}`;
      const shared = asked.get(key) ?? start(key, name, type, opts);
      const answer = opts.dnssecOk === true ? shared.signed : shared.plain;
      shared.waiting += 1;
      // A caller without a signal never gives up, so its query is never cancelled.
      if (!signal) return answer;
      return new Promise<DnsResponse>((resolve, reject) => {
        const unsubscribe = onAbort(signal, () => {
          leave(key, shared);
          reject(aborted());
        });
        answer.then(resolve, reject).finally(unsubscribe);
      });
    },
  };
}
