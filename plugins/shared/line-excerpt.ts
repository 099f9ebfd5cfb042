// The lines of a document that its facts point at, as the site sent them: what a report shows beside a finding
// about a line of robots.txt, security.txt, llms.txt, a sitemap or a JSON document (issue 36), since the probes
// keep no bodies. Bounded: at most EXCERPT_LINES lines, at most FACT_LINES of them first named by any one fact (so
// one fact's many lines leave room for the others), each cut to EXCERPT_CHARS characters; chosen in the order the
// facet gives its pointers (what breaks the grammar first), then listed in line order. The same document always
// gives the same excerpt.
import type { Excerpt } from '../../src/lib/schema-types/observations/wellknown.ts';

/** Lines kept per document: enough for the lines findings name, never the document. */
export const EXCERPT_LINES = 16;
/** Lines one fact may add to the excerpt; it still names any line another fact added. */
export const FACT_LINES = 4;
/** Characters kept of a line (UTF-16 code units; a surrogate pair the cut would split is dropped whole). */
export const EXCERPT_CHARS = 200;

/** One line of a facet's `excerpt` fact (schemas/observations/wellknown.json). */
export type ExcerptLine = NonNullable<Excerpt>[number];

/** A fact of the facet and a line (1-based) it points at. */
export type LinePointer = readonly [fact: string, line: number];

function clip(text: string): string {
  if (text.length <= EXCERPT_CHARS) return text;
  const cut = text.slice(0, EXCERPT_CHARS);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The excerpt of `lines` (the document split as its parser split it) that `pointers` name, in their order. */
export function lineExcerpt(lines: readonly string[], pointers: Iterable<LinePointer>): ExcerptLine[] {
  const chosen = new Map<number, Set<string>>();
  const added = new Map<string, number>();
  for (const [fact, line] of pointers) {
    if (!Number.isInteger(line) || line < 1 || line > lines.length) continue;
    const facts = chosen.get(line);
    if (facts) {
      facts.add(fact);
      continue;
    }
    const count = added.get(fact) ?? 0;
    if (chosen.size >= EXCERPT_LINES || count >= FACT_LINES) continue;
    chosen.set(line, new Set([fact]));
    added.set(fact, count + 1);
  }
  return [...chosen]
    .sort(([a], [b]) => a - b)
    .map(([line, facts]) => {
      // A line is chosen with the fact that named it first: never without one.
      const [first, ...rest] = [...facts].sort();
      return { line, text: clip(lines[line - 1]!), facts: [first!, ...rest] };
    });
}
