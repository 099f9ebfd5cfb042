// Normalising what a caller typed into the one domain name a scan is about: lower-case ASCII (IDNA via the
// WHATWG URL host parser), no trailing dot, a registrable name under a public suffix. Anything else is refused
// with a reason the caller can act on; the scan never sees an address, a port, a path or a scheme.
import { domainToASCII, domainToUnicode } from 'node:url';
import { isIP } from 'node:net';
import { parse } from 'tldts';
import { UNICODE_WHITESPACE, trimOf } from './trim.ts';

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly code:
      'empty' | 'scheme' | 'path' | 'port' | 'ip_literal' | 'characters' | 'label' | 'too_long' | 'no_public_suffix',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A DNS name as names are compared: lower case, without the trailing dot of its absolute form. The root keeps
 * its dot ("." is what a null MX or SRV target names).
 */
export const normaliseName = (name: string): string => (name === '.' ? '.' : name.toLowerCase().replace(/\.$/, ''));

export interface NormalisedDomain {
  /** Lower-case A-label form, no trailing dot: what is scanned and certified. */
  ascii: string;
  /** The same name in Unicode, for display. */
  unicode: string;
  /** The registrable domain (eTLD+1) it belongs to. */
  registrable: string;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Dotted numbers in any base, the forms URL parsers turn into IPv4 addresses. */
const NUMERIC_HOST = /^(0x[0-9a-f]*|\d+)(\.(0x[0-9a-f]*|\d+)){0,3}\.?$/i;

export function normaliseDomain(input: unknown, extraSuffixes: readonly string[] = []): NormalisedDomain {
  if (typeof input !== 'string' || trimOf(input, UNICODE_WHITESPACE) === '')
    throw new DomainError('empty', 'domain is required: a name such as example.com');
  const raw = trimOf(input, UNICODE_WHITESPACE);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw))
    throw new DomainError('scheme', 'give the domain alone, without a scheme such as https://');
  if (/[/?#\\]/.test(raw)) throw new DomainError('path', 'give the domain alone, without a path, query or fragment');
  if (raw.startsWith('[') || isIP(raw) || isIP(raw.replace(/\.$/, '')))
    throw new DomainError('ip_literal', 'an IP address is not a domain; give a domain name');
  if (/:\d*$/.test(raw)) throw new DomainError('port', 'give the domain alone, without a port; scans use 443 and 80');
  if (/[\s@:%*]/.test(raw) || /\p{Cc}/u.test(raw))
    throw new DomainError('characters', 'the domain contains characters a host name cannot have');
  if (NUMERIC_HOST.test(raw))
    throw new DomainError('ip_literal', 'a numeric host is an IP address in disguise; give a domain name');

  // IDNA maps full-width and ideographic dots and digits to ASCII, so the one trailing dot is dropped, and
  // the numeric-host test repeated, after conversion.
  const ascii = normaliseName(domainToASCII(raw));
  if (!ascii || ascii === '.')
    throw new DomainError('characters', 'the domain is not a valid internationalised host name');
  if (NUMERIC_HOST.test(ascii))
    throw new DomainError('ip_literal', 'a numeric host is an IP address in disguise; give a domain name');
  if (ascii.length > 253)
    throw new DomainError('too_long', `the domain is ${ascii.length} characters long; 253 is the most DNS allows`);
  const labels = ascii.split('.');
  for (const label of labels) {
    if (label.length > 63)
      throw new DomainError('label', `the label "${label.slice(0, 20)}…" is longer than 63 characters`);
    if (!LABEL.test(label))
      throw new DomainError('label', `"${label}" is not a valid label (letters, digits and inner hyphens only)`);
    if (label.slice(2, 4) === '--' && !label.startsWith('xn--'))
      throw new DomainError('label', `"${label}" has hyphens in the 3rd and 4th positions, reserved for IDNA`);
  }

  const info = parse(ascii, { allowPrivateDomains: true });
  const extra = extraSuffixes.find((s) => ascii.endsWith('.' + s) && ascii.length > s.length + 1);
  const known = info.isIcann === true || info.isPrivate === true;
  if (extra) {
    const rest = ascii.slice(0, -(extra.length + 1)).split('.');
    return { ascii, unicode: domainToUnicode(ascii), registrable: `${rest[rest.length - 1]}.${extra}` };
  }
  if (!known || !info.domain) {
    throw new DomainError(
      'no_public_suffix',
      `"${ascii}" is not under a public suffix (such as .com or .org), so it cannot be a public domain`,
    );
  }
  return { ascii, unicode: domainToUnicode(ascii), registrable: info.domain };
}
