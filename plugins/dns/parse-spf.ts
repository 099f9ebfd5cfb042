// SPF records (RFC 7208 sections 4.6 to 6): the terms in order, the qualifier of `all`, the modifiers, how many
// DNS lookups the record itself costs, and every term that does not parse. Pure; macros are kept as written.
import { isIP } from 'node:net';
import type { SpfParsed, SpfTerm as SpfTermFact } from '../../src/lib/schema-types/observations/dns.ts';

export type SpfTerm = SpfTermFact;
export type SpfFacts = SpfParsed;
export type SpfQualifier = SpfTerm['qualifier'];

/** Selects SPF records among TXT strings: "v=spf1" followed by a space or the end (section 4.5). */
export const SPF_VERSION = /^v=spf1(\s|$)/i;

const MECHANISMS: ReadonlySet<string> = new Set<SpfTerm['mechanism']>([
  'all',
  'include',
  'a',
  'mx',
  'ptr',
  'ip4',
  'ip6',
  'exists',
]);
const isMechanism = (name: string): name is SpfTerm['mechanism'] => MECHANISMS.has(name);
const LOOKUP_MECHANISMS = new Set(['include', 'a', 'mx', 'ptr', 'exists']);
const KNOWN_MODIFIERS = new Set(['redirect', 'exp']);
/** A modifier's name cannot hold ":" or "/", so `include:a=b` stays a mechanism. */
const MODIFIER = /^([A-Za-z][A-Za-z0-9_.-]*)=(.*)$/;
const DIRECTIVE = /^([+\-~?]?)([A-Za-z][A-Za-z0-9_.-]*)(?::(.*)|(\/.*))?$/;

/** A domain-spec: macros (%{...}, %%, %_, %-) or a dotted name; checked loosely, macros are not expanded. */
function domainSpecOk(spec: string): boolean {
  return spec.length > 0 && /^([\x21-\x24\x26-\x7e]|%\{[slodiphcrtv]\d*r?[.\-+,/_=]*\}|%%|%_|%-)+$/.test(spec);
}

function cidrOk(cidr: string | undefined, max: number): boolean {
  return cidr === undefined || (/^\d{1,3}$/.test(cidr) && Number(cidr) <= max);
}

/** ip4/ip6 arguments: an address and an optional prefix length. */
function addressArgumentError(mechanism: 'ip4' | 'ip6', arg: string | null): string | null {
  if (arg === null) return `${mechanism} needs an address`;
  const [address, cidr, extra] = arg.split('/');
  const family = mechanism === 'ip4' ? 4 : 6;
  if (extra !== undefined || isIP(address ?? '') !== family || !cidrOk(cidr, family === 4 ? 32 : 128)) {
    return `${mechanism}:${arg} is not a valid IPv${family} network`;
  }
  return null;
}

/** a and mx: an optional domain-spec, then an optional "/v4cidr" and "//v6cidr" (section 5.3, 5.4). */
function hostArgumentError(mechanism: string, arg: string | null): string | null {
  if (arg === null) return null;
  const m = /^([^/]*)(?:\/(\d*))?(?:\/\/(\d*))?$/.exec(arg);
  if (
    !m ||
    (m[1] !== '' && !domainSpecOk(m[1]!)) ||
    !cidrOk(m[2] || undefined, 32) ||
    !cidrOk(m[3] || undefined, 128)
  ) {
    return `${mechanism}:${arg} is not a valid argument`;
  }
  return null;
}

export function parseSpf(record: string): SpfFacts {
  const facts: SpfFacts = {
    terms: [],
    all: null,
    redirect: null,
    exp: null,
    includes: [],
    lookup_terms: 0,
    ptr_used: false,
    unknown_mechanisms: [],
    unknown_modifiers: [],
    errors: [],
  };
  const [version, ...terms] = record.split(/ +/).filter((t, i) => t !== '' || i === 0);
  if (!SPF_VERSION.test(`${version ?? ''} `)) facts.errors.push('the record must start with v=spf1');
  if (/[^\x20-\x7e]/.test(record)) facts.errors.push('the record has characters outside printable ASCII');

  for (const term of terms) {
    const modifier = MODIFIER.exec(term);
    if (modifier) {
      const name = modifier[1]!.toLowerCase();
      const value = modifier[2]!;
      if (!KNOWN_MODIFIERS.has(name)) {
        facts.unknown_modifiers.push(name);
        continue;
      }
      if (facts[name as 'redirect' | 'exp'] !== null) facts.errors.push(`${name}= appears more than once`);
      else if (!domainSpecOk(value)) facts.errors.push(`${name}=${value} is not a domain`);
      else facts[name as 'redirect' | 'exp'] = value.toLowerCase();
      continue;
    }
    const directive = DIRECTIVE.exec(term);
    if (!directive) {
      facts.errors.push(`"${term}" is not a mechanism or modifier`);
      continue;
    }
    const qualifier = (directive[1] || '+') as SpfQualifier;
    const mechanism = directive[2]!.toLowerCase();
    const value = directive[3] ?? directive[4] ?? null;
    if (!isMechanism(mechanism)) {
      facts.unknown_mechanisms.push(mechanism);
      continue;
    }
    facts.terms.push({ qualifier, mechanism, value });
    if (LOOKUP_MECHANISMS.has(mechanism)) facts.lookup_terms++;
    let problem: string | null = null;
    switch (mechanism) {
      case 'all':
        if (value !== null) problem = 'all takes no argument';
        else if (facts.all === null) facts.all = qualifier;
        break;
      case 'include':
      case 'exists':
        if (value === null || directive[4] !== undefined || !domainSpecOk(value))
          problem = `${mechanism} needs a domain`;
        else if (mechanism === 'include') facts.includes.push(value.toLowerCase());
        break;
      case 'ptr':
        facts.ptr_used = true;
        if (value !== null && (directive[4] !== undefined || !domainSpecOk(value)))
          problem = `ptr:${value} is not a domain`;
        break;
      case 'ip4':
      case 'ip6':
        problem = directive[4] !== undefined ? `${mechanism} needs an address` : addressArgumentError(mechanism, value);
        break;
      default:
        problem = hostArgumentError(mechanism, value);
    }
    if (problem) facts.errors.push(problem);
  }
  // redirect= is ignored when the record has an `all` (section 6.1), so it costs no lookup then.
  if (facts.redirect !== null && facts.all === null) facts.lookup_terms++;
  return facts;
}
