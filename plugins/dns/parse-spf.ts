// SPF records per the grammar of RFC 7208 (sections 4.5, 4.6.1, 5, 6, 7.1): the terms in order, the qualifier
// of `all`, the modifiers, how many DNS lookups the record itself costs, and every term that breaks a
// production, named in the message. Pure; macros are kept as written (only a receiver can expand them).
import type { SpfParsed, SpfTerm as SpfTermFact } from '../../src/lib/schema-types/observations/dns.ts';
import {
  cidrBreak,
  domainSpecBreak,
  ip4NetworkBreak,
  ip6NetworkBreak,
  macroStringBreak,
  type GrammarBreak,
} from './spf-grammar.ts';

export type SpfTerm = SpfTermFact;
export type SpfFacts = SpfParsed;
export type SpfQualifier = SpfTerm['qualifier'];
type Mechanism = SpfTerm['mechanism'];

/** Selects SPF records among TXT strings: "v=spf1" followed by a space or the end (section 4.5). */
export const SPF_VERSION = /^v=spf1( |$)/i;

const MECHANISMS: ReadonlySet<string> = new Set<Mechanism>([
  'all',
  'include',
  'a',
  'mx',
  'ptr',
  'ip4',
  'ip6',
  'exists',
]);
const isMechanism = (name: string): name is Mechanism => MECHANISMS.has(name);
/** Terms that cost a DNS lookup (section 4.6.4); redirect is counted apart, only when it applies. */
export const LOOKUP_MECHANISMS: ReadonlySet<string> = new Set(['include', 'a', 'mx', 'ptr', 'exists']);
/** modifier = name "=" ..., name = ALPHA *( ALPHA / DIGIT / "-" / "_" / "." ) (section 6). */
const MODIFIER = /^([A-Za-z][A-Za-z0-9\-_.]*)=(.*)$/s;
/** directive = [ qualifier ] mechanism: a name, then ":" or "/" and the argument (section 4.6.1). */
const DIRECTIVE = /^([+\-~?]?)([A-Za-z][A-Za-z0-9\-_.]*)/;

interface Argument {
  domainSpec: string | null;
  problem: GrammarBreak | null;
}

const fine = (domainSpec: string | null = null): Argument => ({ domainSpec, problem: null });
const bad = (production: string, detail: string): Argument => ({ domainSpec: null, problem: { production, detail } });

/** [ ":" domain-spec ] or ":" domain-spec, with nothing else after (include, exists, ptr). */
function domainArgument(rest: string, required: boolean): Argument {
  if (rest === '') return required ? bad('domain-spec', 'a ":" and a domain are required') : fine();
  if (!rest.startsWith(':')) return bad('domain-spec', `"${rest}" must be ":" and a domain`);
  const spec = rest.slice(1);
  const problem = domainSpecBreak(spec);
  return problem ? { domainSpec: null, problem } : fine(spec);
}

/** a and mx: [ ":" domain-spec ] [ dual-cidr-length ], dual-cidr-length = [ "/" ip4 ] [ "//" ip6 ] (5.3, 5.4). */
function hostArgument(rest: string): Argument {
  const m = /^(.*?)(?:\/(\d*))?(?:\/\/(\d*))?$/s.exec(rest)!;
  const [, head = '', v4, v6] = m;
  const problem = (v4 !== undefined ? cidrBreak(v4, 4) : null) ?? (v6 !== undefined ? cidrBreak(v6, 6) : null);
  if (problem) return { domainSpec: null, problem };
  return head === '' ? fine() : domainArgument(head, false);
}

/** ip4: ":" ip4-network [ ip4-cidr-length ], ip6 likewise (section 5.6). */
function networkArgument(rest: string, family: 4 | 6): Argument {
  if (!rest.startsWith(':')) return bad(`ip${family}-network`, 'a ":" and an address are required');
  const [address = '', ...cidr] = rest.slice(1).split('/');
  const problem =
    (family === 4 ? ip4NetworkBreak(address) : ip6NetworkBreak(address)) ??
    (cidr.length > 1 ? { production: `ip${family}-cidr-length`, detail: 'only one "/" prefix length' } : null) ??
    (cidr.length === 1 ? cidrBreak(cidr[0]!, family) : null);
  return problem ? { domainSpec: null, problem } : fine();
}

function mechanismArgument(mechanism: Mechanism, rest: string): Argument {
  switch (mechanism) {
    case 'all':
      return rest === '' ? fine() : bad('all', `"all" takes no argument, found "${rest}"`);
    case 'include':
    case 'exists':
      return domainArgument(rest, true);
    case 'ptr':
      return domainArgument(rest, false);
    case 'a':
    case 'mx':
      return hostArgument(rest);
    case 'ip4':
      return networkArgument(rest, 4);
    case 'ip6':
      return networkArgument(rest, 6);
  }
}

const describe = (term: string, b: GrammarBreak) => `"${term}" breaks ${b.production}: ${b.detail}`;

function emptyFacts(): SpfFacts {
  return {
    terms: [],
    all: null,
    redirect: null,
    exp: null,
    includes: [],
    lookup_terms: 0,
    unknown_mechanisms: [],
    unknown_modifiers: [],
    errors: [],
  };
}

function readModifier(facts: SpfFacts, term: string, name: string, value: string): void {
  if (name !== 'redirect' && name !== 'exp') {
    facts.unknown_modifiers.push(name);
    const problem = macroStringBreak(value);
    if (problem) facts.errors.push(describe(term, problem));
    return;
  }
  const problem = domainSpecBreak(value);
  if (facts[name] !== null) facts.errors.push(`"${term}" breaks ${name}: ${name}= may appear only once (section 6)`);
  else if (problem) facts.errors.push(describe(term, problem));
  else facts[name] = value;
}

function readDirective(facts: SpfFacts, term: string, m: RegExpExecArray): void {
  const qualifier = (m[1] || '+') as SpfQualifier;
  const name = m[2]!.toLowerCase();
  if (!isMechanism(name)) {
    facts.unknown_mechanisms.push(name);
    facts.errors.push(`"${term}" breaks mechanism: "${name}" is not all, include, a, mx, ptr, ip4, ip6 or exists`);
    return;
  }
  const rest = term.slice(m[0].length);
  const { domainSpec, problem } = mechanismArgument(name, rest);
  const value = rest === '' ? null : rest.replace(/^:/, '');
  facts.terms.push({ qualifier, mechanism: name, value, domain_spec: domainSpec });
  if (LOOKUP_MECHANISMS.has(name)) facts.lookup_terms++;
  if (problem) facts.errors.push(describe(term, problem));
  else if (name === 'all' && facts.all === null) facts.all = qualifier;
  else if (name === 'include') facts.includes.push(domainSpec!);
}

export function parseSpf(record: string): SpfFacts {
  const facts = emptyFacts();
  const version = /^v=spf1(?= |$)/i.exec(record);
  if (!version) facts.errors.push('the record breaks version: it must start with "v=spf1" and a space');
  // record = version terms *SP, terms = *( 1*SP ( directive / modifier ) ): terms split on SP only.
  const terms = record
    .slice(version ? version[0].length : 0)
    .split(' ')
    .filter((t) => t !== '');
  for (const term of terms) {
    if (/[^\x21-\x7e]/.test(term)) {
      facts.errors.push(`"${term}" breaks terms: only printable ASCII, separated by spaces, is allowed`);
      continue;
    }
    const modifier = MODIFIER.exec(term);
    if (modifier) {
      readModifier(facts, term, modifier[1]!.toLowerCase(), modifier[2]!);
      continue;
    }
    const directive = DIRECTIVE.exec(term);
    if (directive) readDirective(facts, term, directive);
    else facts.errors.push(`"${term}" breaks directive: it is neither a mechanism nor a modifier`);
  }
  // redirect= is ignored when the record has an `all` (section 6.1), so it costs no lookup then.
  if (facts.redirect !== null && facts.all === null) facts.lookup_terms++;
  return facts;
}
