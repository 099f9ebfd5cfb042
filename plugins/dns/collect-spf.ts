// SPF: the domain's record, parsed, and the walk through its include/redirect tree that a receiver's
// evaluation could take, counting DNS lookups as RFC 7208 section 4.6.4 does (worst case: every term reached).
import type { SpfExpansionFacet, SpfFacet, SpfTarget } from './facts.ts';
import { parseSpf, SPF_VERSION, type SpfFacts } from './parse-spf.ts';
import { txtOf, type Querier } from './query.ts';
import { txtRecords } from './txt-records.ts';

/** Past 10 lookups a receiver returns permerror, so the walk need not go further. */
const LOOKUP_LIMIT = 10;
/** Bounds the walk however the tree is shaped (loops included). */
const MAX_TARGETS = 30;

export async function collectSpf(q: Querier, domain: string): Promise<SpfFacet> {
  const base = await txtRecords(q, domain, SPF_VERSION);
  const single = base.count === 1 ? base.records[0]! : null;
  return {
    ...base,
    bytes: single === null ? null : Buffer.byteLength(single),
    parsed: single === null ? null : parseSpf(single),
  };
}

interface Pending {
  domain: string;
  via: 'include' | 'redirect';
}

function next(record: SpfFacts): Pending[] {
  return [
    ...record.includes.map((domain) => ({ domain, via: 'include' as const })),
    ...(record.redirect !== null && record.all === null ? [{ domain: record.redirect, via: 'redirect' as const }] : []),
  ];
}

export async function expandSpf(q: Querier, spf: SpfFacet): Promise<SpfExpansionFacet> {
  if (spf.parsed === null)
    return { lookups: null, void_lookups: null, effective_all: null, complete: null, targets: [] };
  let lookups = spf.parsed.lookup_terms;
  let voidLookups = 0;
  let effectiveAll = spf.parsed.all;
  const targets: SpfTarget[] = [];
  let frontier = next(spf.parsed);
  // Level by level, each level's targets asked in parallel; repeated names are answered from the querier's memo.
  while (frontier.length > 0 && lookups <= LOOKUP_LIMIT && targets.length < MAX_TARGETS) {
    const level = frontier.slice(0, MAX_TARGETS - targets.length);
    frontier = [];
    const answers = await Promise.all(
      level.map((t) => (t.domain.includes('%') ? null : q.askPointed(t.domain, 'TXT'))),
    );
    level.forEach((t, i) => {
      const response = answers[i];
      if (!response) {
        targets.push({ ...t, rcode: null, spf_count: null });
        return;
      }
      const txt = txtOf(response);
      const records = txt.map((s) => s.join('')).filter((s) => SPF_VERSION.test(s));
      targets.push({ ...t, rcode: response.rcode, spf_count: records.length });
      if (response.rcode === 'NXDOMAIN' || (response.rcode === 'NOERROR' && txt.length === 0)) voidLookups++;
      if (records.length !== 1) return;
      const parsed = parseSpf(records[0]!);
      lookups += parsed.lookup_terms;
      if (t.via === 'redirect') effectiveAll = parsed.all;
      frontier.push(...next(parsed));
    });
  }
  return { lookups, void_lookups: voidLookups, effective_all: effectiveAll, complete: frontier.length === 0, targets };
}
