// The lines of a document its facts point at: bounded in count, per fact and in length, in line order, the
// pointers' order deciding which lines fit, and the same document and pointers always giving the same excerpt.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EXCERPT_CHARS,
  EXCERPT_LINES,
  FACT_LINES,
  lineExcerpt,
  type LinePointer,
} from '../../../plugins/shared/line-excerpt.ts';

const doc = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);

describe('lineExcerpt', () => {
  it('quotes the lines named, in line order, with every fact that names each', () => {
    const pointers: LinePointer[] = [
      ['parse_errors', 9],
      ['groups', 2],
      ['parse_errors', 2],
      ['groups', 9],
    ];
    expect(lineExcerpt(doc, pointers)).toEqual([
      { line: 2, text: 'line 2', facts: ['groups', 'parse_errors'] },
      { line: 9, text: 'line 9', facts: ['groups', 'parse_errors'] },
    ]);
  });

  it('keeps the first lines each fact names, so one fact with many lines leaves room for the others', () => {
    const many = Array.from({ length: 30 }, (_, i): LinePointer => ['groups', i + 1]);
    const excerpt = lineExcerpt(doc, [...many, ['parse_errors', 35]]);
    expect(excerpt.map((l) => l.line)).toEqual([1, 2, 3, 4, 35]);
  });

  it('ignores lines the document does not have, and cuts long lines without splitting a character', () => {
    expect(
      lineExcerpt(doc, [
        ['x', 0],
        ['x', 41],
        ['x', 1.5],
      ]),
    ).toEqual([]);
    const long = `${'a'.repeat(EXCERPT_CHARS - 1)}😀tail`;
    expect(lineExcerpt([long], [['x', 1]])[0]!.text).toBe('a'.repeat(EXCERPT_CHARS - 1));
  });

  it('is bounded and deterministic for any document and pointers', () => {
    const facts = fc.constantFrom('parse_errors', 'groups', 'expires', 'access.GPTBot', 'fields.contact');
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 300 }), { maxLength: 60 }),
        fc.array(fc.tuple(facts, fc.integer({ min: -2, max: 64 })), { maxLength: 200 }),
        (lines, pointers) => {
          const excerpt = lineExcerpt(lines, pointers);
          expect(lineExcerpt(lines, pointers)).toEqual(excerpt);
          expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_LINES);
          const numbers = excerpt.map((l) => l.line);
          expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
          for (const l of excerpt) {
            expect(l.text.length).toBeLessThanOrEqual(EXCERPT_CHARS);
            expect(lines[l.line - 1]!.startsWith(l.text)).toBe(true);
            expect(l.facts).toEqual([...new Set(l.facts)].sort());
            for (const f of l.facts) expect(pointers.some(([pf, pl]) => pf === f && pl === l.line)).toBe(true);
          }
          // No fact brought in more lines than its share: each line is there for the first fact that named it.
          const firstNamer = new Map<number, string>();
          for (const [f, n] of pointers) if (numbers.includes(n) && !firstNamer.has(n)) firstNamer.set(n, f);
          const brought = new Map<string, number>();
          for (const f of firstNamer.values()) brought.set(f, (brought.get(f) ?? 0) + 1);
          for (const n of brought.values()) expect(n).toBeLessThanOrEqual(FACT_LINES);
        },
      ),
    );
  });
});
