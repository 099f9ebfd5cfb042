import { describe, expect, it } from 'vitest';
import { logicTerms, logicText } from '../../src/catalogue/logic-text.ts';

const v = (path: string) => ({ var: path });

describe("a rule's logic as text", () => {
  it.each([
    [{ '==': [v('a.published'), true] }, 'a.published is true'],
    [{ '!=': [v('a.version'), null] }, 'a.version is not null'],
    [{ '>=': [{ length: v('a.list') }, 1] }, 'length(a.list) >= 1'],
    [{ and: [{ '==': [v('x'), 1] }, { or: [v('y'), v('z')] }] }, 'x == 1 and (y or z)'],
    [{ or: [v('y'), { and: [v('x'), v('z')] }] }, 'y or (x and z)'],
    [{ '!': { in: [v('t'), ['a', 'b']] } }, 'not (t in ["a", "b"])'],
    [{ '!': v('t') }, 'not t'],
    [{ '*': [{ '+': [v('a'), 1] }, 2] }, '(a + 1) * 2'],
    [{ '<': [0, v('x'), 10] }, '0 < x < 10'],
    [{ regex_test: ['^a+$', v('s'), 'i'] }, 's matches /^a+$/i'],
    [{ var: ['x', 0] }, 'x (or 0)'],
    [{ some: [v('c.items'), { '==': [v('secure'), false] }] }, 'some item of c.items has (item.secure is false)'],
    [
      { all: [{ filter: [v('l'), { '==': [v(''), 'x'] }] }, v('ok')] },
      'every item of (the items of l with (item == "x")) has (item.ok)',
    ],
    [{ if: [v('a'), 1, v('b'), 2, 3] }, 'if a then 1 else if b then 2 else 3'],
    [{ contains_any: [v('rel'), ['a']] }, 'contains_any(rel, ["a"])'],
  ])('%j reads %s', (logic, text) => {
    expect(logicText(logic)).toBe(text);
  });

  it('splits a top-level and/or into its terms', () => {
    expect(logicTerms({ and: [v('a'), { or: [v('b'), v('c')] }] })).toEqual({ joiner: 'all', terms: ['a', 'b or c'] });
    expect(logicTerms({ or: [v('a'), v('b')] })).toEqual({ joiner: 'any', terms: ['a', 'b'] });
    expect(logicTerms({ '==': [v('a'), 1] })).toEqual({ joiner: null, terms: ['a == 1'] });
  });
});
