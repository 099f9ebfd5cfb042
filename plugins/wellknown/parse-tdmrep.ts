// /.well-known/tdmrep.json per the W3C TDMRep community group final report (2024-05-10): a JSON array of rules,
// each with a `location` path pattern, `tdm-reservation` 0 or 1, and an optional absolute `tdm-policy` URL. Parsed
// once keeping each member's line, for the excerpt a report shows beside a finding (issue 36).
import { errorExcerpt, jsonExcerpt, JsonLinesError, parseJsonLines, type MemberPointer } from '../shared/json-lines.ts';
import type { ExcerptLine } from '../shared/line-excerpt.ts';
import { decodeUtf8 } from './text.ts';

export interface TdmRepEntry {
  location: string | null;
  tdm_reservation: number | null;
  tdm_policy: string | null;
}

export type TdmRepProblem = 'not_an_object' | 'location_missing' | 'reservation_invalid' | 'policy_invalid';

export interface ParsedTdmRep {
  /** The body parsed as JSON. */
  json: boolean;
  /** The JSON value is an array. */
  array: boolean;
  entries: TdmRepEntry[];
  problems: { index: number; code: TdmRepProblem }[];
  /**
   * The lines its facts point at: where it stops being JSON (json), an opening line that is not an array's
   * (array), the members each problem names (an absent member: its entry's opening line), each entry's location.
   */
  excerpt: ExcerptLine[];
}

/** The member each problem is about; not_an_object is about the entry itself. */
const PROBLEM_MEMBER: Record<TdmRepProblem, string | null> = {
  not_an_object: null,
  location_missing: 'location',
  reservation_invalid: 'tdm-reservation',
  policy_invalid: 'tdm-policy',
};

function absoluteUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

export function parseTdmRep(bytes: Uint8Array): ParsedTdmRep {
  let doc;
  try {
    doc = parseJsonLines(decodeUtf8(bytes).text);
  } catch (err) {
    if (!(err instanceof JsonLinesError)) throw err;
    return { json: false, array: false, entries: [], problems: [], excerpt: errorExcerpt(err, ['json']) };
  }
  const value = doc.value;
  if (!Array.isArray(value))
    return { json: true, array: false, entries: [], problems: [], excerpt: jsonExcerpt(doc, [['array', '']]) };
  const out: ParsedTdmRep = { json: true, array: true, entries: [], problems: [], excerpt: [] };
  value.forEach((item: unknown, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      out.problems.push({ index, code: 'not_an_object' });
      out.entries.push({ location: null, tdm_reservation: null, tdm_policy: null });
      return;
    }
    const o = item as Record<string, unknown>;
    const location = typeof o.location === 'string' && o.location !== '' ? o.location : null;
    const reservation =
      o['tdm-reservation'] === 0 || o['tdm-reservation'] === 1 ? (o['tdm-reservation'] as number) : null;
    const policy = typeof o['tdm-policy'] === 'string' ? o['tdm-policy'] : null;
    if (location === null) out.problems.push({ index, code: 'location_missing' });
    if (reservation === null) out.problems.push({ index, code: 'reservation_invalid' });
    if (o['tdm-policy'] !== undefined && (policy === null || !absoluteUrl(policy)))
      out.problems.push({ index, code: 'policy_invalid' });
    out.entries.push({ location, tdm_reservation: reservation, tdm_policy: policy });
  });
  const pointers: MemberPointer[] = out.problems.map(({ index, code }) => {
    const member = PROBLEM_MEMBER[code];
    return ['problems', member === null ? `/${index}` : `/${index}/${member}`];
  });
  out.entries.forEach((entry, index) => {
    if (entry.location !== null) pointers.push(['entries', `/${index}/location`]);
  });
  out.excerpt = jsonExcerpt(doc, pointers);
  return out;
}
