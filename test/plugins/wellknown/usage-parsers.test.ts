import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseContentSignal } from '../../../plugins/wellknown/parse-content-signal.ts';
import { parseTdmRep } from '../../../plugins/wellknown/parse-tdmrep.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseContentSignal', () => {
  it('keeps a key named __proto__ as a key, flagged unknown', () => {
    const parsed = parseContentSignal('__proto__=yes, search=no');
    expect(Object.entries(parsed.signals)).toEqual([
      ['__proto__', 'yes'],
      ['search', 'no'],
    ]);
    expect(parsed.problems).toEqual(['unknown_key']);
  });

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
      excerpt: [
        {
          line: 1,
          text: '[{"location": "/*", "tdm-reservation": 1, "tdm-policy": "https://good.test/policy.json"}]',
          facts: ['entries'],
        },
      ],
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

  it('tells bad JSON from JSON that is not an array, with the line of each', () => {
    expect(parseTdmRep(bytes('<html>'))).toMatchObject({ json: false, excerpt: [{ line: 1, facts: ['json'] }] });
    expect(parseTdmRep(bytes('[\n  {"location": "/"},\n]')).excerpt).toEqual([{ line: 3, text: ']', facts: ['json'] }]);
    expect(parseTdmRep(bytes('{"location": "/"}'))).toEqual({
      json: true,
      array: false,
      entries: [],
      problems: [],
      excerpt: [{ line: 1, text: '{"location": "/"}', facts: ['array'] }],
    });
  });

  it('quotes the lines its problems are about, an absent member by its entry, and each location', () => {
    const text = [
      '[',
      '  {"location": "/", "tdm-reservation": 2},',
      '  "x",',
      '  {',
      '    "tdm-reservation": 0,',
      '    "tdm-policy": "policy.json"',
      '  }',
      ']',
    ].join('\r\n');
    expect(parseTdmRep(bytes(text)).excerpt).toEqual([
      { line: 2, text: '  {"location": "/", "tdm-reservation": 2},', facts: ['entries', 'problems'] },
      { line: 3, text: '  "x",', facts: ['problems'] },
      { line: 4, text: '  {', facts: ['problems'] },
      { line: 6, text: '    "tdm-policy": "policy.json"', facts: ['problems'] },
    ]);
  });
});

// Generators transcribed from the Content-Signal grammar written in parse-content-signal.ts.
const mixedCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((up) => [...word].map((ch, i) => (up[i] ? ch.toUpperCase() : ch)).join(''));
const ows = fc.constantFrom('', ' ', '\t', ' \t');
const signalKey = fc.constantFrom('search', 'ai-input', 'ai-train');
const signalEntry = fc
  .tuple(signalKey, fc.constantFrom('yes', 'no'), ows, ows)
  .chain(([key, value, a, b]) =>
    fc.tuple(mixedCase(key), mixedCase(value)).map(([k, v]) => ({ wire: `${k}${a}=${b}${v}`, key, value })),
  );
const signalEntries = fc.uniqueArray(signalEntry, { minLength: 1, maxLength: 3, selector: (e) => e.key });
const joinEntries = (wires: string[], sp: string) => wires.join(`${sp},${sp}`);

describe('Content-Signal from its grammar', () => {
  it('parses every generated declaration with its keys and values', () => {
    fc.assert(
      fc.property(signalEntries, ows, (entries, sp) => {
        expect(
          parseContentSignal(
            joinEntries(
              entries.map((e) => e.wire),
              sp,
            ),
          ),
        ).toEqual({
          signals: Object.fromEntries(entries.map((e) => [e.key, e.value])),
          problems: [],
        });
      }),
    );
  });

  const mutations: [string, fc.Arbitrary<string>, string][] = [
    ['an entry without "="', signalKey.map((k) => `${k} yes`), 'malformed_entry'],
    ['a space inside the key', fc.constant('ai input=yes'), 'malformed_entry'],
    [
      'a character outside the key grammar',
      fc.constantFrom('ai.train=no', 'search=yes;', 'ai-input:yes'),
      'malformed_entry',
    ],
    [
      'a space other than OWS',
      fc.constantFrom('\u00a0', '\u2003', '\n', '\u000b').map((s) => `search${s}=yes`),
      'malformed_entry',
    ],
    ['an unknown key', fc.constantFrom('ai_train', 'train', 'searches'), 'unknown_key'],
    [
      'a value other than yes or no',
      signalKey.chain((k) => fc.constantFrom('maybe', 'true', '1', 'y').map((v) => `${k}=${v}`)),
      'invalid_value',
    ],
  ];
  for (const [name, bad, code] of mutations) {
    it(`refuses ${name} (${code}), keeping the other entries`, () => {
      fc.assert(
        fc.property(signalEntries, bad, ows, (entries, wrong, sp) => {
          const entry = code === 'unknown_key' ? `${wrong}=yes` : wrong;
          const p = parseContentSignal(joinEntries([...entries.map((e) => e.wire), entry], sp));
          expect(p.problems).toContain(code);
          for (const e of entries) if (!entry.toLowerCase().startsWith(e.key)) expect(p.signals[e.key]).toBe(e.value);
        }),
      );
    });
  }

  it('reports a repeated key (duplicate_key) and an empty value (empty)', () => {
    fc.assert(
      fc.property(signalEntries, ows, (entries, sp) => {
        const wires = entries.map((e) => e.wire);
        expect(parseContentSignal(joinEntries([...wires, wires[0]!], sp)).problems).toEqual(['duplicate_key']);
        expect(parseContentSignal(sp).problems).toEqual(['empty']);
      }),
    );
  });
});

// Generators transcribed from the TDMRep final report, section 3.2 (tdmrep.json).
const location = fc.constantFrom('/', '/*', '/images/*', '/blog/2024/*.html', '/a b');
const policy = fc.webUrl();
const tdmEntry = fc.record(
  { location, reservation: fc.constantFrom(0, 1), policy: fc.option(policy, { nil: undefined }) },
  { requiredKeys: ['location', 'reservation'] },
);
const tdmJson = (e: { location: string; reservation: number; policy?: string }) => ({
  location: e.location,
  'tdm-reservation': e.reservation,
  ...(e.policy === undefined ? {} : { 'tdm-policy': e.policy }),
});

describe('TDMRep from its structure', () => {
  it('parses every generated file with its entries', () => {
    fc.assert(
      fc.property(fc.array(tdmEntry, { maxLength: 4 }), (entries) => {
        const { excerpt, ...parsed } = parseTdmRep(bytes(JSON.stringify(entries.map(tdmJson), null, 1)));
        expect(parsed).toEqual({
          json: true,
          array: true,
          entries: entries.map((e) => ({
            location: e.location,
            tdm_reservation: e.reservation,
            tdm_policy: e.policy ?? null,
          })),
          problems: [],
        });
        // Each entry's location line, as written.
        expect(excerpt.map((l) => [l.text, l.facts])).toEqual(
          entries.map((e) => [`  "location": ${JSON.stringify(e.location)},`, ['entries']]),
        );
      }),
    );
  });

  const mutations: [string, (o: Record<string, unknown>) => unknown, string][] = [
    ['an entry that is not an object', (o) => ['x', 1, null, [o]][String(o.location).length % 4], 'not_an_object'],
    ['no location', ({ location: _, ...rest }) => rest, 'location_missing'],
    ['an empty location', (o) => ({ ...o, location: '' }), 'location_missing'],
    ['no tdm-reservation', ({ 'tdm-reservation': _, ...rest }) => rest, 'reservation_invalid'],
    ['a tdm-reservation other than 0 or 1', (o) => ({ ...o, 'tdm-reservation': 2 }), 'reservation_invalid'],
    ['a tdm-reservation written as a string', (o) => ({ ...o, 'tdm-reservation': '1' }), 'reservation_invalid'],
    ['a relative tdm-policy', (o) => ({ ...o, 'tdm-policy': 'policy.json' }), 'policy_invalid'],
    [
      'a tdm-policy that is not a string',
      (o) => ({ ...o, 'tdm-policy': { url: 'https://x.test/' } }),
      'policy_invalid',
    ],
  ];
  for (const [name, mutate, code] of mutations) {
    it(`refuses ${name} (${code}) at its index`, () => {
      fc.assert(
        fc.property(fc.array(tdmEntry, { minLength: 1, maxLength: 4 }), fc.nat(), (entries, pick) => {
          const index = pick % entries.length;
          const json = entries.map(tdmJson).map((o, i) => (i === index ? mutate(o) : o));
          expect(parseTdmRep(bytes(JSON.stringify(json))).problems).toEqual([{ index, code }]);
        }),
      );
    });
  }
});
