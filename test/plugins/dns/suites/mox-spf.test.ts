// The SPF parser against mox's SPF tests (github.com/mjl-/mox, commit 1c9587665b32): every record of
// spf/parse_test.go with its expected parse, and the records of spf/spf_test.go whose outcome follows from the
// record's text alone (records mox evaluates, and those it refuses with a macro or name syntax error). Outcomes
// that depend on DNS answers (void lookups, loops, missing includes) are a receiver's, not a parser's, and are
// left out. The inputs and answers are facts about SPF; each disagreement is judged below against RFC 7208.
import { describe, expect, it } from 'vitest';
import { parseSpf } from '../../../../plugins/dns/parse-spf.ts';
import { expectAgreement } from '../../suite-agreement.ts';

/** A term as mox expects it: [qualifier, mechanism, domain-spec or null]. */
type Term = [string, string, string | null];
interface Valid {
  terms: Term[];
  redirect?: string;
  exp?: string;
}

const t = (text: string): Term => {
  const m = /^([+\-~?]?)([a-z0-9]+)(?::([^/]*))?/.exec(text)!;
  const domain = m[2] === 'ip4' || m[2] === 'ip6' ? null : (m[3] ?? null);
  return [m[1] || '+', m[2]!, domain];
};
const terms = (text: string): Term[] => (text === '' ? [] : text.split(' ').map(t));

/** spf/parse_test.go: record, then the expected record (null: a parse error). */
const PARSE: [string, Valid | null][] = [
  ['', null],
  ['v=spf1', { terms: [] }],
  ['v=SPF1', { terms: [] }],
  ['V=spf1  ', { terms: [] }],
  [
    'V=spf1 all Include:example.org a ?a -a +a ~a a:x a:x/0 a:x/24//64 a:x//64 mx mx:x ptr ptr:x IP4:10.0.0.1 ip4:0.0.0.0/0 ip4:10.0.0.1/24 ip6:2001:db8::1 ip6:2001:db8::1/128 exists:x REDIRECT=x exp=X Other=x',
    {
      terms: terms(
        'all include:example.org a ?a -a +a ~a a:x a:x a:x a:x mx mx:x ptr ptr:x ip4 ip4 ip4 ip6 ip6 exists:x',
      ),
      redirect: 'x',
      exp: 'X',
    },
  ],
  ['V=spf1 -all', { terms: terms('-all') }],
  ['v=spf1 !', null],
  ['v=spf1 ?redirect=bogus', null],
  ['v=spf1 redirect=mox.example redirect=mox2.example', null],
  ['v=spf1 exp=mox.example exp=mox2.example', null],
  ['v=spf1 ip4:10.0.0.256', null],
  ['v=spf1 ip6:2001:db8:::1', null],
  ['v=spf1 ip4:10.0.0.1/33', null],
  ['v=spf1 ip6:2001:db8::1/129', null],
  ['v=spf1 a:mox.example/33', null],
  ['v=spf1 a:mox.example//129', null],
  ['v=spf1 exists:%%.%{l1r+}.%{d}', { terms: terms('exists:%%.%{l1r+}.%{d}') }],
  ['v=spf1 exists:%{l1r+}..', null],
  ['v=spf1 exists:%{l1r+}._.', null],
  ['v=spf1 exists:%{l1r+}.123.', null],
  ['v=spf1 exists:%{l1r+}.bad-.', null],
  ['v=spf1 exists:%{l1r+}.-bad.', null],
  ['v=spf1 exists:%{l1r+}./.', null],
  ['v=spf1 exists:%{x}', null],
  ['v=spf1 exists:%{s0}', null],
  ['v=spf1 exists:%{ir}.%{l1r+}.%{d}', { terms: terms('exists:%{ir}.%{l1r+}.%{d}') }],
];

/** spf/spf_test.go: records mox evaluates without a syntax error (true) or refuses for their syntax (false). */
const EVALUATED: [string, boolean][] = [
  ['v=spf1 exists:%{l1r+}.%{d}', true],
  ['v=spf1 -ip4:192.0.2.0/24 +all', true],
  ['v=spf1 -ptr:example.com +all', true],
  ['v=spf1 include:_netblock.example.com -all', true],
  ['v=spf1 ip4:192.0.2.128/28 -all', true],
  ['v=spf1 +all', true],
  ['v=spf1 a -all', true],
  ['v=spf1 a:example.org -all', true],
  ['v=spf1 mx -all', true],
  ['v=spf1 mx:example.org -all', true],
  ['v=spf1 mx mx:example.org -all', true],
  ['v=spf1 mx/30 mx:example.org/30 -all', true],
  ['v=spf1 ptr -all', true],
  ['v=spf1 redirect=_spf.example.com', true],
  ['v=spf1 mx include:mobile-users._spf.%{d} include:remote-users._spf.%{d} -all', true],
  ['v=spf1 -include:ip4._spf.%{d} -include:ptr._spf.%{d} +all', true],
  ['v=spf1 include:example.com include:example.net -all', true],
  ['v=spf1 redirect=example.org', true],
  ['v=spf1 ip4:10.0.0.1 -all', true],
  ['v=spf1 ip4:10.0.0.2 -all', true],
  ['v=spf1 ip6:2001:db8::0/64 -all', true],
  ['v=spf1 exists:absent1.example exists:absent2.example ip4:1.2.3.4 exists:absent3.example -all', true],
  ['v=spf1 include:loop.example -all', true],
  ['v=spf1 a:absent.example', true],
  ['v=spf1 include:temperror.example', true],
  ['v=spf1 include:absent.example', true],
  ['v=spf1 include:permerror.example', true],
  ['v=spf1 ptr:many-mx.example ~all', true],
  ['v=spf1 ip4:10.0.1.1 -ip4:10.0.1.2 ?all exp=details.expl.example', true],
  ['v=spf1 ip4:10.0.1.1 -ip4:10.0.1.2 ~all exp=details-multi.expl.example', true],
  // mox: ErrMacroSyntax or ErrName, "macro 'c' only valid while expanding for exp".
  ['v=spf1 include:%{c}', false],
  ['v=spf1 exists:%{c}', false],
  ['v=spf1 redirect=%{c}', false],
  ['v=spf1 a:%{c}', false],
  ['v=spf1 mx:%{c}', false],
  ['v=spf1 ptr:%{c}', false],
  // mox: ErrName, "%%" expands to "%", which is no domain name.
  ['v=spf1 a:%%', false],
];

/**
 * Judged disagreement. mox accepts single-label targets (`a:x`, `mx:x`, `exists:x`, `redirect=x`). RFC 7208
 * section 7.1 makes domain-end "." toplabel (or a macro), so a domain-spec needs at least two labels; the OpenSPF
 * suite's `a-only-toplabel` case refuses `a:museum` for this reason. We follow the RFC.
 */
const JUDGED: Record<string, string> = {
  'parse:V=spf1 all Include:example.org a ?a -a +a ~a a:x a:x/0 a:x/24//64 a:x//64 mx mx:x ptr ptr:x IP4:10.0.0.1 ip4:0.0.0.0/0 ip4:10.0.0.1/24 ip6:2001:db8::1 ip6:2001:db8::1/128 exists:x REDIRECT=x exp=X Other=x':
    'single-label domain-spec, RFC 7208 section 7.1',
};

const ours = (record: string): Valid | null => {
  const facts = parseSpf(record);
  if (facts.errors.length > 0) return null;
  return {
    terms: facts.terms.map((x) => [x.qualifier, x.mechanism, x.domain_spec]),
    ...(facts.redirect === null ? {} : { redirect: facts.redirect }),
    ...(facts.exp === null ? {} : { exp: facts.exp }),
  };
};

const outcomes = [
  ...PARSE.map(([record, expected]) => ({
    id: `parse:${record}`,
    agrees: JSON.stringify(ours(record)) === JSON.stringify(expected),
  })),
  ...EVALUATED.map(([record, valid]) => ({ id: `spf:${record}`, agrees: (ours(record) !== null) === valid })),
];

describe('SPF parser against mox (spf/parse_test.go, spf/spf_test.go)', () => {
  it.each(outcomes)('$id', ({ id, agrees }) => expect(agrees || id in JUDGED).toBe(true));

  it('agrees on at least 97 % of the cases, every disagreement judged', () => {
    expectAgreement('mox SPF', outcomes, JUDGED);
  });
});
