// SPF: the domain's record, parsed, and the walk a receiver's evaluation could take through it (RFC 7208
// section 4.6.4): every name a DNS-querying term looks up, with what the answer held, and the records reached
// through include and redirect, parsed in turn. Which lookups are void, which targets break evaluation, and
// whether the budget is kept is for the rules to read from these facts.
import type { DnsResponse } from '../../src/net/types.ts';
import type { SpfExpansionFacet, SpfFacet, SpfTarget } from './facts.ts';
import { LOOKUP_MECHANISMS, parseSpf, SPF_VERSION, type SpfFacts } from './parse-spf.ts';
import { recordsOf, txtOf, type Querier } from './query.ts';
import { txtRecords } from './txt-records.ts';
import { normaliseName } from '../../src/lib/domain-name.ts';

/** Past 10 lookups a receiver returns permerror, so the walk asks no more. */
const LOOKUP_LIMIT = 10;

export async function collectSpf(q: Querier, domain: string): Promise<SpfFacet> {
  const base = await txtRecords(q, domain, SPF_VERSION);
  const single = base.count === 1 ? base.records[0]! : null;
  return {
    ...base,
    bytes: single === null ? null : Buffer.byteLength(single),
    parsed: single === null ? null : parseSpf(single),
  };
}

/** A record reached by the walk; `chain` when only redirects lead to it from the domain's own record. */
interface Reached {
  domain: string;
  record: SpfFacts;
  chain: boolean;
}

type Via = SpfTarget['via'];

interface Lookup {
  domain: string;
  via: Via;
  from: string;
  chain: boolean;
}

/** The lookups a record's terms make, in evaluation order (redirect last), each costing one of the budget. */
function lookupsOf(r: Reached): Array<Lookup | null> {
  const out: Array<Lookup | null> = r.record.terms
    .filter((t) => LOOKUP_MECHANISMS.has(t.mechanism))
    .map((t) =>
      t.mechanism === 'ptr'
        ? null // ptr needs the sender's address: counted, never looked up
        : { domain: t.domain_spec ?? r.domain, via: t.mechanism as Via, from: r.domain, chain: false },
    );
  if (r.record.redirect !== null && r.record.all === null) {
    out.push({ domain: r.record.redirect, via: 'redirect', from: r.domain, chain: r.chain });
  }
  return out;
}

const unread = (l: Lookup): SpfTarget => ({
  domain: l.domain,
  via: l.via,
  from: l.from,
  rcode: null,
  answers: null,
  spf_count: null,
  errors: null,
});

/** Asks what the receiver would ask for one term; the record found when the term leads to one. */
async function lookUp(q: Querier, l: Lookup): Promise<{ target: SpfTarget; next: Reached | null }> {
  if (l.domain.includes('%')) return { target: unread(l), next: null };
  const name = normaliseName(l.domain);
  if (l.via === 'a') {
    const [a, aaaa] = await Promise.all([q.askPointed(name, 'A'), q.askPointed(name, 'AAAA')]);
    const rcode = a.rcode === 'NOERROR' ? aaaa.rcode : a.rcode;
    const answers = recordsOf(a, 'A').length + recordsOf(aaaa, 'AAAA').length;
    return { target: { ...unread(l), rcode, answers }, next: null };
  }
  if (l.via === 'mx' || l.via === 'exists') {
    const type = l.via === 'mx' ? 'MX' : 'A';
    const response: DnsResponse = await q.askPointed(name, type);
    return { target: { ...unread(l), rcode: response.rcode, answers: recordsOf(response, type).length }, next: null };
  }
  const response = await q.askPointed(name, 'TXT');
  const txt = txtOf(response).map((strings) => strings.join(''));
  const spf = txt.filter((s) => SPF_VERSION.test(s));
  const record = spf.length === 1 ? parseSpf(spf[0]!) : null;
  const target = {
    ...unread(l),
    rcode: response.rcode,
    answers: txt.length,
    spf_count: spf.length,
    errors: record?.errors ?? null,
  };
  return { target, next: record === null ? null : { domain: name, record, chain: l.chain } };
}

export async function expandSpf(q: Querier, spf: SpfFacet): Promise<SpfExpansionFacet> {
  if (spf.parsed === null) return { lookups: null, effective_all: null, complete: null, targets: [] };
  let lookups = 0;
  let effectiveAll = spf.parsed.all;
  let complete = true;
  const targets: SpfTarget[] = [];
  let level: Reached[] = [{ domain: spf.name, record: spf.parsed, chain: true }];
  // Level by level, each level's lookups asked in parallel; repeated names are answered from the querier's memo.
  while (level.length > 0) {
    const asked: Lookup[] = [];
    for (const lookup of level.flatMap(lookupsOf)) {
      lookups++;
      if (lookup === null) continue;
      if (lookups <= LOOKUP_LIMIT) asked.push(lookup);
      else if (lookup.via === 'include' || lookup.via === 'redirect') complete = false;
    }
    const results = await Promise.all(asked.map((l) => lookUp(q, l)));
    targets.push(...results.map((r) => r.target));
    level = results.flatMap((r) => (r.next === null ? [] : [r.next]));
    for (const r of level) if (r.chain) effectiveAll = r.record.all;
    if (asked.some((l) => l.chain && l.via === 'redirect') && !level.some((r) => r.chain)) effectiveAll = null;
  }
  return { lookups, effective_all: effectiveAll, complete, targets };
}
