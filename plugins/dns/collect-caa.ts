// CAA: the relevant record set (RFC 8659 section 3), found at the domain or its nearest parent up to the
// registrable domain, with each property parsed.
import { getDomain } from 'tldts';
import type { CaaFacet } from './facts.ts';
import { parseCaaRecord } from './parse-caa.ts';
import { recordsOf, type Querier } from './query.ts';

/** The domain and each parent down to its registrable domain, nearest first. */
export function caaClimb(domain: string): string[] {
  const registrable = getDomain(domain) ?? domain;
  if (domain !== registrable && !domain.endsWith(`.${registrable}`)) return [domain];
  const names = [domain];
  for (let n = domain; n !== registrable;) {
    n = n.slice(n.indexOf('.') + 1);
    names.push(n);
  }
  return names;
}

export async function collectCaa(q: Querier, domain: string): Promise<CaaFacet> {
  const names = caaClimb(domain);
  // Every level at once: a few parallel questions cost less time than a climb one round trip at a time.
  const responses = await Promise.all(names.map((n) => q.ask(n, 'CAA')));
  const index = responses.findIndex((r) => recordsOf(r, 'CAA').length > 0);
  const records = (index < 0 ? [] : recordsOf(responses[index]!, 'CAA'))
    .map((r) => parseCaaRecord(r.data as { flags: number; tag: string; value: string }))
    .sort((x, y) => (x.tag + '\u0000' + x.value < y.tag + '\u0000' + y.value ? -1 : 1));
  const valuesOf = (tag: string) => records.filter((r) => r.tag === tag).map((r) => r.value);
  return {
    rcode: responses[0]!.rcode,
    found_at: index < 0 ? null : names[index]!,
    records,
    issue: valuesOf('issue'),
    issuewild: valuesOf('issuewild'),
    iodef: valuesOf('iodef'),
  };
}
