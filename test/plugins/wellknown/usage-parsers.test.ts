import { describe, expect, it } from 'vitest';
import { parseContentSignal } from '../../../plugins/wellknown/parse-content-signal.ts';
import { parseTdmRep } from '../../../plugins/wellknown/parse-tdmrep.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseContentSignal', () => {
  it('reads the contentsignals.org form', () => {
    expect(parseContentSignal('search=yes, ai-train=no')).toEqual({
      signals: { search: 'yes', 'ai-train': 'no' },
      problems: [],
    });
    expect(parseContentSignal('AI-Input = Yes')).toEqual({ signals: { 'ai-input': 'yes' }, problems: [] });
  });

  it('reports each kind of problem once', () => {
    expect(parseContentSignal('').problems).toEqual(['empty']);
    expect(parseContentSignal('search=maybe, search=no, train=yes, garbage').problems).toEqual([
      'duplicate_key',
      'invalid_value',
      'malformed_entry',
      'unknown_key',
    ]);
  });
});

describe('parseTdmRep', () => {
  it('reads the entries of a TDMRep file', () => {
    const p = parseTdmRep(
      bytes('[{"location": "/*", "tdm-reservation": 1, "tdm-policy": "https://good.test/policy.json"}]'),
    );
    expect(p).toEqual({
      json: true,
      array: true,
      entries: [{ location: '/*', tdm_reservation: 1, tdm_policy: 'https://good.test/policy.json' }],
      problems: [],
    });
  });

  it('reports entries that do not follow the shape', () => {
    const p = parseTdmRep(
      bytes('[{"location": "/", "tdm-reservation": 2}, "x", {"tdm-reservation": 0, "tdm-policy": "policy.json"}]'),
    );
    expect(p.problems).toEqual([
      { index: 0, code: 'reservation_invalid' },
      { index: 1, code: 'not_an_object' },
      { index: 2, code: 'location_missing' },
      { index: 2, code: 'policy_invalid' },
    ]);
  });

  it('tells bad JSON from JSON that is not an array', () => {
    expect(parseTdmRep(bytes('<html>')).json).toBe(false);
    expect(parseTdmRep(bytes('{"location": "/"}'))).toEqual({ json: true, array: false, entries: [], problems: [] });
  });
});
