// The house style of rule files: the same data back, fields in schema order, one line when it fits.
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { formatRule, restyled } from '../../src/catalogue/rule-format.ts';
import { expectEvery } from '../helpers/every.ts';

const rule = {
  examples: [
    { name: 'ok', observations: { tls: { negotiated: { reachable: true, protocol: 'TLSv1.3' } } }, expect: 'pass' },
  ],
  check: { '==': [{ var: 'tls.negotiated.protocol' }, 'TLSv1.3'] },
  id: 'tls.protocol.tls13_supported',
  version: 1,
  rationale: 'Short prose.',
  requires: ['tls.negotiated'],
};

describe('formatRule', () => {
  it('writes the fields in the rule schema order, logic on one line, prose as a folded block', () => {
    expect(formatRule(rule)).toBe(
      [
        'id: tls.protocol.tls13_supported',
        'version: 1',
        'requires: [tls.negotiated]',
        'check: {==: [{var: tls.negotiated.protocol}, TLSv1.3]}',
        'rationale: >-',
        '  Short prose.',
        'examples:',
        '  - name: ok',
        '    observations: {tls: {negotiated: {reachable: true, protocol: TLSv1.3}}}',
        '    expect: pass',
        '',
      ].join('\n'),
    );
  });

  it('opens what does not fit in 120 columns into blocks, down to the parts that fit', () => {
    const wide = {
      ...rule,
      check: { and: Array.from({ length: 6 }, (_, i) => ({ '==': [{ var: `tls.negotiated.field_${i}` }, true] })) },
    };
    const text = formatRule(wide);
    expect(text).toContain('check:\n  and:\n    - {==: [{var: tls.negotiated.field_0}, true]}\n');
    expectEvery(text.split('\n'), (line) => line.length <= 120, 'lines of at most 120 characters');
    expect(parseDocument(text).toJS()).toEqual(wide);
  });

  it('leaves a file in the house style alone and restyles one that is not', () => {
    const styled = formatRule(rule);
    expect(restyled(styled)).toBeNull();
    expect(restyled(JSON.stringify(rule))).toBe(styled);
  });
});
