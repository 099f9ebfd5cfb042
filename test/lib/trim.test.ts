import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ASCII_WHITESPACE,
  C0_CONTROL_OR_SPACE,
  SPACE_OR_TAB,
  trimEndOf,
  trimOf,
  trimStartOf,
  UNICODE_WHITESPACE,
  XML_WHITESPACE,
} from '../../src/lib/trim.ts';

const text = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', 'a', '#', '\u00a0') });
const sets = fc.constantFrom(SPACE_OR_TAB, ASCII_WHITESPACE, '#', '');

describe('trim', () => {
  it('removes exactly the runs of the set at each end, and keeps what is between', () => {
    fc.assert(
      fc.property(text, sets, (value, chars) => {
        const inSet = (c: string) => chars.includes(c);
        const units = [...value];
        const first = units.findIndex((c) => !inSet(c));
        const last = units.findLastIndex((c) => !inSet(c));
        const middle = first === -1 ? '' : units.slice(first, last + 1).join('');
        expect(trimOf(value, chars)).toBe(middle);
        expect(trimStartOf(value, chars)).toBe(first === -1 ? '' : units.slice(first).join(''));
        expect(trimEndOf(value, chars)).toBe(units.slice(0, last + 1).join(''));
      }),
    );
  });

  it('leaves characters outside the set, such as a no-break space, where they are', () => {
    expect(trimOf('\u00a0 a \t', SPACE_OR_TAB)).toBe('\u00a0 a');
    expect(trimOf('\f\r\n a \n', ASCII_WHITESPACE)).toBe('a');
  });

  it('names with UNICODE_WHITESPACE exactly what String.prototype.trim removes, every code point checked', () => {
    const differ: string[] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCodePoint(c);
      if ((ch.trim() === '') !== UNICODE_WHITESPACE.includes(ch)) differ.push(c.toString(16));
    }
    expect(differ).toEqual([]);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(' ', '\u3000', '\ufeff', '\u2028', 'a', '\u200b') }), (v) => {
        expect(trimOf(v, UNICODE_WHITESPACE)).toBe(v.trim());
      }),
    );
  });

  it('strips from a URL what the WHATWG URL parser strips, and XML only its four white space characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('\u0000', '\u001f', ' ', '\u007f', '\u00a0', 'a') }), (v) => {
        const url = `https://example.test/${v}`;
        expect(new URL(`\u0001 ${url}\u0000\u0020`).href).toBe(
          new URL(trimOf(`\u0001 ${url}\u0000\u0020`, C0_CONTROL_OR_SPACE)).href,
        );
      }),
    );
    expect(C0_CONTROL_OR_SPACE).toHaveLength(0x21);
    expect(trimOf('\u007f x \u001f', C0_CONTROL_OR_SPACE)).toBe('\u007f x');
    expect(trimOf('\f\t\r\n loc \n', XML_WHITESPACE)).toBe('\f\t\r\n loc');
  });
});
