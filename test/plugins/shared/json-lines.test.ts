// A JSON document parsed once with its places: the value JSON.parse gives, the lines a JSON pointer names (a
// missing member: the opening line of the object that lacks it), where text stops being JSON, and excerpts
// bounded and deterministic like the text documents' (line-excerpt.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  jsonExcerpt,
  JsonLinesError,
  LOCATED_CHARS,
  parseJsonLines,
  pointerLines,
  REDACTED,
  type MemberPointer,
} from '../../../plugins/shared/json-lines.ts';
import { EXCERPT_CHARS, EXCERPT_LINES, FACT_LINES } from '../../../plugins/shared/line-excerpt.ts';

const card = `{
  "name": "Travel agent",
  "url": "http://agent.example/a2a",
  "skills": [
    { "id": "book" },
    {
      "id": "cancel",
      "tags":
        "not a list"
    }
  ],
  "a/b": { "~x": 1 }
}`;

describe('parseJsonLines', () => {
  it('gives the value JSON.parse gives, a repeated name keeping its last value', () => {
    const text = '{"a": 1, "__proto__": {"b": 2}, "a": 3}';
    const doc = parseJsonLines(text);
    expect(doc.value).toEqual(JSON.parse(text));
    expect(Object.keys(doc.value as object)).toEqual(Object.keys(JSON.parse(text) as object));
    expect(pointerLines(doc.tree!, '/a')).toEqual([1]);
  });

  it('says on which line text stops being JSON, and keeps the lines to quote it', () => {
    const error = (() => {
      try {
        parseJsonLines('{\r\n  "a": 1,\r\n}');
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(JsonLinesError);
    expect((error as JsonLinesError).line).toBe(3);
    expect((error as JsonLinesError).lines).toEqual(['{', '  "a": 1,', '}']);
  });

  it('reads a document nested deeper than the parser recurses, or larger than it locates, without its places', () => {
    const deep = `${'['.repeat(20000)}${']'.repeat(20000)}`;
    const doc = parseJsonLines(deep);
    expect(doc.tree).toBeNull();
    expect(jsonExcerpt(doc, [['x', '']])).toEqual([]);
    const large = JSON.stringify({ a: 'x'.repeat(LOCATED_CHARS) });
    expect(parseJsonLines(large)).toEqual({ value: JSON.parse(large) as unknown, tree: null, lines: [] });
    expect(() => parseJsonLines(`${large},`)).toThrow(JsonLinesError);
    expect(() => parseJsonLines(`${'['.repeat(20000)}}`)).toThrow(JsonLinesError);
  });

  it('agrees with JSON.parse on any JSON text, and refuses what JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string({ maxLength: 40 })), (text) => {
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          expect(() => parseJsonLines(text)).toThrow(JsonLinesError);
          return;
        }
        expect(parseJsonLines(text).value).toEqual(expected);
      }),
    );
  });
});

describe('pointerLines', () => {
  const tree = parseJsonLines(card).tree!;

  it('names the line of a member, of an element, and of a value that starts on a line of its own', () => {
    expect(pointerLines(tree, '/url')).toEqual([3]);
    expect(pointerLines(tree, '/skills/0')).toEqual([5]);
    expect(pointerLines(tree, '/skills/1/tags')).toEqual([8, 9]);
    expect(pointerLines(tree, '/a~1b/~0x')).toEqual([12]);
  });

  it('names the opening line of the object a missing member belongs in', () => {
    expect(pointerLines(tree, '')).toEqual([1]);
    expect(pointerLines(tree, '/description')).toEqual([1]);
    expect(pointerLines(tree, '/skills/0/tags')).toEqual([5]);
    expect(pointerLines(tree, '/skills/7')).toEqual([4]);
    expect(pointerLines(tree, '/name/x')).toEqual([2]);
  });
});

describe('jsonExcerpt', () => {
  it('quotes the members the facts name, as sent, with the facts that name each', () => {
    const pointers: MemberPointer[] = [
      ['form_violations', '/skills/1/tags'],
      ['missing_required', ''],
      ['url', '/url'],
    ];
    expect(jsonExcerpt(parseJsonLines(card), pointers)).toEqual([
      { line: 1, text: '{', facts: ['missing_required'] },
      { line: 3, text: '  "url": "http://agent.example/a2a",', facts: ['url'] },
      { line: 8, text: '      "tags":', facts: ['form_violations'] },
      { line: 9, text: '        "not a list"', facts: ['form_violations'] },
    ]);
  });

  it('quotes a secret the site published as redacted, before cutting the line', () => {
    const doc = parseJsonLines('{"keys": [\n  {"kty": "oct", "k": "c2VjcmV0"}\n]}');
    expect(jsonExcerpt(doc, [['private_members', '/keys/0/k']], ['c2VjcmV0', ''])).toEqual([
      { line: 2, text: `  {"kty": "oct", "k": "${REDACTED}"}`, facts: ['private_members'] },
    ]);
  });

  it('is bounded and deterministic for any document and pointers', () => {
    const facts = fc.constantFrom('form_violations', 'missing_required', 'issuer', 'keys');
    const pointer = fc
      .array(fc.oneof(fc.constantFrom('0', '1', 'a', 'keys', 'b/c', '~'), fc.string({ maxLength: 3 })), {
        maxLength: 4,
      })
      .map((tokens) => tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''));
    fc.assert(
      fc.property(
        fc.jsonValue().map((v) => JSON.stringify(v, null, 2)),
        fc.array(fc.tuple(facts, pointer), { maxLength: 60 }),
        (text, pointers) => {
          const doc = parseJsonLines(text);
          const excerpt = jsonExcerpt(doc, pointers);
          expect(jsonExcerpt(parseJsonLines(text), pointers)).toEqual(excerpt);
          expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_LINES);
          const numbers = excerpt.map((l) => l.line);
          expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
          for (const l of excerpt) {
            expect(l.text.length).toBeLessThanOrEqual(EXCERPT_CHARS);
            expect(doc.lines[l.line - 1]!.startsWith(l.text)).toBe(true);
            // Each line is one a pointer of each of its facts names.
            for (const f of l.facts)
              expect(pointers.some(([pf, p]) => pf === f && pointerLines(doc.tree!, p).includes(l.line))).toBe(true);
          }
          // A fact's pointers bring at most FACT_LINES lines of their own (a pointer can name two lines).
          expect(excerpt.filter((l) => l.facts.length === 1 && l.facts[0] === 'issuer').length).toBeLessThanOrEqual(
            FACT_LINES,
          );
        },
      ),
    );
  });
});
