import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASCII_WHITESPACE, SPACE_OR_TAB, trimEndOf, trimOf, trimStartOf } from '../../src/lib/trim.ts';

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
});
