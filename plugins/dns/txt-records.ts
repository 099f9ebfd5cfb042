// The TXT records of one kind at a name (SPF, DMARC, MTA-STS, ...), chosen by their version tag.
import type { TxtBase } from './facts.ts';
import { recordsWithVersion } from './parse-tags.ts';
import { txtOf, type Querier } from './query.ts';

export async function txtRecords(q: Querier, name: string, version: RegExp, pointed = false): Promise<TxtBase> {
  const response = pointed ? await q.askPointed(name, 'TXT') : await q.ask(name, 'TXT');
  const records = recordsWithVersion(txtOf(response), version);
  return { name, rcode: response.rcode, records, count: records.length };
}
