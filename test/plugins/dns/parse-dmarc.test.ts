// The DMARC parser against both grammars (RFC 9989 section 4.8, RFC 7489 section 6.4) three ways: the RFCs'
// own records, records generated from the ABNF, and records with one production broken.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DMARC_VERSION, mailtoDomain, parseDmarc } from '../../../plugins/dns/parse-dmarc.ts';

describe('RFC examples', () => {
  // RFC 9989 Appendix B.2 (the zone-file strings joined, as receivers join them) and RFC 7489 Appendix B.2.
  const records = [
    'v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com',
    'v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com; ruf=mailto:auth-reports@example.com',
    'v=DMARC1; p=none; rua=mailto:dmarc-feedback@example.com; ruf=mailto:auth-reports@thirdparty.example.net',
    'v=DMARC1; p=quarantine; rua=mailto:dmarc-feedback@example.com,mailto:tld-test@thirdparty.example.net; t=y',
    'v=DMARC1; p=reject; rua=mailto:dmarc-feedback@example.com,mailto:tld-test@thirdparty.example.net',
    'v=DMARC1; p=quarantine; rua=mailto:dmarc-feedback@example.com,mailto:tld-test@thirdparty.example.net!10m; pct=25',
  ];
  it.each(records)('%s parses under both grammars', (record) => {
    expect(DMARC_VERSION.test(record)).toBe(true);
    expect(parseDmarc(record)).toMatchObject({ errors: [], errors_rfc7489: [] });
    expect(parseDmarc(record).effective_policy).toBe(/p=(\w+)/.exec(record)![1]);
  });

  it('reads the report authorisation record of RFC 9989 Appendix B.2.4 (no p) as valid under RFC 9989 only', () => {
    const r = parseDmarc(
      'v=DMARC1; rua=mailto:aggregate-reports@thirdparty.example.net; ruf=mailto:failure-reports@thirdparty.example.net',
    );
    expect(r.errors).toEqual([]);
    expect(r.errors_rfc7489).toEqual(['the record breaks dmarc-request: p is required (section 6.3)']);
  });

  it('reads the policy tags, lower-cased, and the URIs as written', () => {
    const d = parseDmarc(
      'V = DMARC1 ; P=Reject; sp=quarantine; np=REJECT; t=Y; pct=50; rua=mailto:a@example.org ,\tmailto:b@rep.example!10m; adkim=s; aspf=r; x=1',
    );
    expect(d).toMatchObject({ p: 'reject', sp: 'quarantine', np: 'reject', t: 'y', pct: 50, adkim: 's', aspf: 'r' });
    expect([d.rua, d.unknown_tags, d.errors, d.errors_rfc7489]).toEqual([
      ['mailto:a@example.org', 'mailto:b@rep.example!10m'],
      ['x'],
      [],
      [],
    ]);
  });

  it('selects records by a first v tag of exactly DMARC1, the tag name in any case', () => {
    expect(DMARC_VERSION.test('V=DMARC1; p=none')).toBe(true);
    expect(DMARC_VERSION.test('v = DMARC1 ;p=none')).toBe(true);
    expect(DMARC_VERSION.test('v=DMARC1')).toBe(true);
    expect(DMARC_VERSION.test('v=dmarc1; p=none')).toBe(false);
    expect(DMARC_VERSION.test('v=DMARC10; p=none')).toBe(false);
    expect(DMARC_VERSION.test('p=none; v=DMARC1')).toBe(false);
  });

  it('extracts the mailbox domain of mailto: report URIs', () => {
    expect(mailtoDomain('mailto:dmarc@Reports.Example.NET!10m')).toBe('reports.example.net');
    expect(mailtoDomain('mailto://example.org')).toBeNull();
    expect(mailtoDomain('https://example.org/r')).toBeNull();
  });
});

const wsp = fc.constantFrom('', ' ', '\t', '  ');
const sep = fc.tuple(wsp, wsp).map(([a, b]) => `${a};${b}`);
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((up) => [...word].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
const request = fc.constantFrom('none', 'quarantine', 'reject').chain(anyCase);
const mailto = fc
  .tuple(fc.stringMatching(/^[a-z0-9.+-]{1,10}$/), fc.domain(), fc.option(fc.stringMatching(/^![1-9]\d{0,3}[kmgt]?$/)))
  .map(([local, domain, size]) => `mailto:${local}@${domain}${size ?? ''}`);
const uris = fc.array(mailto, { minLength: 1, maxLength: 3 }).map((list) => list.join(','));
const fo = fc
  .tuple(fc.constantFrom('0', '1'), fc.subarray(['d', 's']))
  .chain(([n, afrf]) => fc.shuffledSubarray([n, ...afrf], { minLength: 1 }))
  .map((items) => items.join(':'));
/** Tags other than v and p, valid under both grammars (RFC 9989's t and psd are unknown, so ignored, under RFC 7489). */
const otherTag = fc.oneof(
  request.map((v) => `sp=${v}`),
  request.map((v) => `np=${v}`),
  fc.constantFrom('r', 's', 'R').map((v) => `adkim=${v}`),
  fc.constantFrom('r', 's').map((v) => `aspf=${v}`),
  uris.map((v) => `rua=${v}`),
  uris.map((v) => `ruf=${v}`),
  fo.map((v) => `fo=${v}`),
  fc.constantFrom('y', 'n').map((v) => `t=${v}`),
  fc.constantFrom('y', 'n', 'u').map((v) => `psd=${v}`),
  fc.integer({ min: 0, max: 100 }).map((v) => `pct=${v}`),
  fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((v) => `ri=${v}`),
  fc.constant('rf=afrf'),
  fc.stringMatching(/^x[a-z]{3,7}=[a-z0-9]{1,8}$/), // unknown: no defined tag starts with x
);
const record = fc
  .tuple(
    fc.constantFrom('v', 'V'),
    wsp,
    wsp,
    sep,
    fc.constantFrom('p', 'P'),
    wsp,
    request,
    fc.uniqueArray(otherTag, { maxLength: 6, selector: (t) => t.split('=')[0]!.toLowerCase() }),
    fc.array(sep, { minLength: 6, maxLength: 6 }),
    fc.boolean(),
  )
  .map(([v, w1, w2, s0, p, w3, policy, tags, seps, trailing]) => {
    const text = `${v}${w1}=${w2}DMARC1${s0}${p}${w3}=${w3}${policy}${tags.map((t, i) => seps[i] + t).join('')}${trailing ? ';' : ''}`;
    return { text, policy: policy.toLowerCase(), tags };
  });

describe('records generated from the ABNF', () => {
  it('all are selected and parse under both grammars, with p read back', () => {
    fc.assert(
      fc.property(record, ({ text, policy }) => {
        expect(DMARC_VERSION.test(text)).toBe(true);
        const d = parseDmarc(text);
        expect([d.errors, d.errors_rfc7489]).toEqual([[], []]);
        expect(d.p).toBe(policy);
        expect(d.effective_policy).toBe(policy);
      }),
    );
  });
});

describe('RFC 7489-era values generated from its ABNF (section 6.4)', () => {
  const colonList = (items: fc.Arbitrary<string>, before: fc.Arbitrary<string>, after: fc.Arbitrary<string>) =>
    fc
      .array(fc.tuple(before, after, items), { minLength: 0, maxLength: 5 })
      .chain((rest) => items.map((first) => first + rest.map(([b, a, item]) => `${b}:${a}${item}`).join('')));
  // dmarc-fo = ( "0" / "1" / "d" / "s" ) *( *WSP ":" *WSP ( "0" / "1" / "d" / "s" ) ): any list, repeats and all.
  const fo7489 = colonList(fc.constantFrom('0', '1', 'd', 's', 'D', 'S'), wsp, wsp);
  // dmarc-rfmt = Keyword *( *WSP ":" Keyword ), afrf being the one registered format.
  const rf7489 = colonList(anyCase('afrf'), wsp, fc.constant(''));
  const tag7489 = fc.oneof(
    fo7489.map((v) => `fo=${v}`),
    rf7489.map((v) => `rf=${v}`),
    fc
      .stringMatching(/^\d{1,10}$/)
      .filter((v) => BigInt(v) < 2n ** 32n)
      .map((v) => `ri=${v}`),
    fc.integer({ min: 0, max: 100 }).map((v) => `pct=${v}`),
    fc.constantFrom('r', 's', 'R', 'S').map((v) => `adkim=${v}`),
    fc.constantFrom('r', 's', 'R', 'S').map((v) => `aspf=${v}`),
    uris.map((v) => `rua=${v}`),
  );

  it('parse without an RFC 7489 error, fo=0:1:d:s included', () => {
    expect(parseDmarc('v=DMARC1; p=none; fo=0:1:d:s').errors_rfc7489).toEqual([]);
    fc.assert(
      fc.property(request, tag7489, (policy, tag) => {
        expect(parseDmarc(`v=DMARC1; p=${policy}; ${tag}`).errors_rfc7489).toEqual([]);
      }),
    );
  });
});

describe('records with one production broken', () => {
  // [tag, the production RFC 9989 names, the production RFC 7489 names (null when it ignores the tag)]
  const broken: Array<[string, string | null, string | null]> = [
    ['p=block', 'dmarc-request', 'dmarc-request'],
    ['sp=nonee', 'dmarc-request', 'dmarc-request'],
    ['np=maybe', 'dmarc-request', 'dmarc-request'],
    ['adkim=x', 'dmarc-rors', 'dmarc-rors'],
    ['aspf=123', 'dmarc-rors', 'dmarc-rors'],
    ['rua=dmarc@example.com', 'dmarc-uri', 'dmarc-uri'],
    ['rua=mailto:a@example.com!', 'dmarc-uri', 'dmarc-uri'],
    ['rua=mailto:a@example.com!10p', 'dmarc-uri', 'dmarc-uri'],
    ['rua=mailto:a@example.com,,mailto:b@example.com', 'dmarc-uri', 'dmarc-uri'],
    ['ruf=mailto:a b@example.com', 'dmarc-uri', 'dmarc-uri'],
    ['rua=mailto:a@example.com!99999999999999999999', null, 'dmarc-uri'],
    ['fo=bad', 'dmarc-fo', 'dmarc-fo'],
    ['fo=d:d', 'dmarc-fo', null],
    ['fo=0:1', 'dmarc-fo', null],
    ['t=x', 'dmarc-yorn', null],
    ['psd=x', 'dmarc-psd', null],
    ['pct=110', null, 'dmarc-percent'],
    ['pct=0100', null, 'dmarc-percent'],
    ['ri=-1', null, 'dmarc-ainterval'],
    ['ri=4294967296', null, 'dmarc-ainterval'],
    ['rf=afrf-', null, 'dmarc-rfmt'],
    ['rf=afrf.x', null, 'dmarc-rfmt'],
    ['rf=iodef', null, 'dmarc-rfmt'],
    ['r2d2=x', 'dmarc-tag', 'dmarc-tag'],
    ['junk', 'dmarc-tag', 'dmarc-tag'],
    ['aspf=', 'dmarc-tag', 'dmarc-tag'],
  ];
  it.each(broken)('"%s" breaks %s (RFC 9989) and %s (RFC 7489)', (tag, rfc9989, rfc7489) => {
    const p = tag.startsWith('p=') ? '' : '; p=none';
    const d = parseDmarc(`v=DMARC1${p}; ${tag}`);
    expect(d.errors.map((e) => e.match(/breaks ([a-z-]+)/)?.[1])).toEqual(rfc9989 === null ? [] : [rfc9989]);
    expect(d.errors_rfc7489.map((e) => e.match(/breaks ([a-z-]+)/)?.[1])).toEqual(rfc7489 === null ? [] : [rfc7489]);
  });

  it('refuses an empty tag, a repeated tag and a version that is not first or not exactly DMARC1', () => {
    expect(parseDmarc('v=DMARC1;; p=none').errors).toEqual(['an empty tag between two ";" breaks dmarc-tag']);
    expect(parseDmarc('v=DMARC1; p=none; P=reject').errors).toEqual([
      '"P=reject" breaks dmarc-tag: tag "P" appears more than once',
    ]);
    expect(parseDmarc('p=none; v=DMARC1').errors[0]).toContain('breaks dmarc-version');
    expect(parseDmarc('v=DMARC1x; p=none').errors[0]).toContain('breaks dmarc-version');
  });

  it('holds RFC 7489 to p right after v, and to the separator after the version', () => {
    expect(parseDmarc('v=DMARC1; sp=none; p=reject')).toMatchObject({
      errors: [],
      errors_rfc7489: ['the record breaks dmarc-record: p must come right after v'],
    });
    expect(parseDmarc('v=DMARC1').errors_rfc7489).toEqual([
      'the record breaks dmarc-request: p is required (section 6.3)',
      'the record breaks dmarc-record: dmarc-sep (";") must follow the version',
    ]);
  });

  it('refuses any generated record with one tag value broken, naming the production', () => {
    fc.assert(
      fc.property(
        record,
        fc.constantFrom(...broken.filter(([, a]) => a !== null)),
        ({ text, tags }, [tag, production]) => {
          const name = tag.split('=')[0]!;
          fc.pre(name !== 'p' && !tags.some((t) => t.split('=')[0]!.toLowerCase() === name));
          const d = parseDmarc(`${text.replace(/;$/, '')}; ${tag}`);
          expect(d.errors).toHaveLength(1);
          expect(d.errors[0]).toContain(`breaks ${production}`);
        },
      ),
    );
  });
});

describe('what a receiver applies when p, sp or np breaks (RFC 7489 section 6.6.3 step 6)', () => {
  const rua = 'rua=mailto:dmarc@example.org';
  const cases: Array<[string, string | null]> = [
    [`v=DMARC1; ${rua}`, 'none'],
    [`v=DMARC1; p=block; ${rua}`, 'none'],
    [`v=DMARC1; p=reject; sp=invalid; ${rua}`, 'none'],
    [`v=DMARC1; p=reject; np=maybe; ${rua}`, 'none'],
    [`v=DMARC1; sp=reject; p=reject; ${rua}`, 'none'],
    ['v=DMARC1; p=reject; sp=invalid', null],
    ['v=DMARC1; p=block; rua=dmarc@example.org', null],
    ['v=DMARC1; p=block; rua=mailto:dmarc@example.org!99999999999999999999', null],
    ['v=DMARC1', null],
    [`v=DMARC1; p=reject; junk; ${rua}`, null],
    [`v=DMARC1x; p=reject; ${rua}`, null],
    ['v=DMARC1; p=reject; pct=110; rf=iodef; fo=bad', 'reject'],
    [`v=DMARC1; p=quarantine; rua=bogus, mailto:dmarc@example.org`, 'quarantine'],
  ];
  it.each(cases)('%s is acted on as %s', (text, applied) => {
    expect(parseDmarc(text).effective_policy).toBe(applied);
  });

  it('a generated record whose p, sp or np breaks is acted on as none with a valid rua, and not at all without', () => {
    const bad = fc.constantFrom('p=block', 'sp=nonee', 'np=maybe');
    fc.assert(
      fc.property(record, bad, fc.boolean(), ({ text, tags }, tag, withRua) => {
        const name = tag.split('=')[0]!;
        fc.pre(!tags.some((t) => ['rua', name].includes(t.split('=')[0]!.toLowerCase())));
        const body = tag.startsWith('p=')
          ? text.replace(/[pP][ \t]*=[ \t]*[A-Za-z]+/, tag)
          : `${text.replace(/;$/, '')}; ${tag}`;
        const d = parseDmarc(withRua ? `${body.replace(/;$/, '')}; ${rua}` : body);
        expect(d.effective_policy).toBe(withRua ? 'none' : null);
      }),
    );
  });
});
