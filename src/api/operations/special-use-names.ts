// Special-use domain names (the IANA registry of RFC 6761 section 3): names that never belong to a public web
// site, so a scan of one could only probe something private or nothing at all. Each is refused with the RFC
// that reserves it, so the caller learns why rather than meeting a failed scan.
import { domainToASCII } from 'node:url';
import { normaliseName } from '../../lib/domain-name.ts';
import { UNICODE_WHITESPACE, trimOf } from '../../lib/trim.ts';

interface SpecialUse {
  suffix: string;
  why: string;
  /** True for names an operator may open with DVS_EXTRA_SUFFIXES (the fixture internet uses `.test`). */
  extraSuffixMayAllow?: boolean;
}

const SPECIAL_USE: readonly SpecialUse[] = [
  { suffix: 'onion', why: 'is a Tor onion service name, reserved by RFC 7686' },
  { suffix: 'home.arpa', why: 'is reserved for home networks by RFC 8375' },
  {
    suffix: 'in-addr.arpa',
    why: 'is the reverse-mapping tree of IPv4 addresses (RFC 1035; its private ranges reserved by RFC 6761)',
  },
  {
    suffix: 'ip6.arpa',
    why: 'is the reverse-mapping tree of IPv6 addresses (RFC 3596; its private ranges reserved by RFC 6761)',
  },
  { suffix: 'alt', why: 'is reserved for names outside the DNS by RFC 9476' },
  { suffix: 'local', why: 'is reserved for Multicast DNS on the local link by RFC 6762' },
  { suffix: 'localhost', why: 'always names this host, reserved by RFC 6761' },
  { suffix: 'invalid', why: 'is guaranteed never to exist, reserved by RFC 6761' },
  { suffix: 'example', why: 'is reserved for documentation by RFC 6761' },
  { suffix: 'test', why: 'is reserved for testing by RFC 6761', extraSuffixMayAllow: true },
];

const under = (name: string, suffix: string) => name === suffix || name.endsWith('.' + suffix);

/**
 * Why `input` is a special-use name, or null. `extraSuffixes` (DVS_EXTRA_SUFFIXES) opens only the names the
 * registry marks for testing.
 */
export function specialUseProblem(input: string, extraSuffixes: readonly string[]): string | null {
  const name = normaliseName(domainToASCII(trimOf(input, UNICODE_WHITESPACE)));
  if (!name) return null;
  const entry = SPECIAL_USE.find((s) => under(name, s.suffix));
  if (!entry) return null;
  if (entry.extraSuffixMayAllow && extraSuffixes.some((s) => under(name, s) && under(s, entry.suffix))) return null;
  return `"${name}" is a special-use name: .${entry.suffix} ${entry.why}, so it is no public web site to validate`;
}
