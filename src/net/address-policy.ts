// Which addresses a probe may connect to. A scanned domain must never steer the service into its own network:
// private, loopback, link-local, metadata, documentation and other special-purpose ranges are refused, in v4
// and v6 and in every v6 form that embeds a v4 address. Only configuration (DVS_ALLOW_NETWORKS) widens this.
import ipaddr from 'ipaddr.js';
import { normaliseName } from '../lib/domain-name.ts';
import { C0_CONTROL_OR_SPACE, trimOf } from '../lib/trim.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

export type AddressVerdict =
  { allowed: true; address: string; family: 4 | 6 } | { allowed: false; address: string; reason: string };

export interface AddressPolicy {
  /** Checks one IP address (any spelling ipaddr.js parses; hosts go through `classifyHost` first). */
  check(address: string): AddressVerdict;
}

const parseRange = (cidr: string): Range => ipaddr.parseCIDR(cidr);

/** IPv4 ranges that are not public unicast (RFC 6890 and successors), each named for the error detail. */
const REFUSED_V4: ReadonlyArray<[string, Range]> = [
  ['unspecified', parseRange('0.0.0.0/8')],
  ['private', parseRange('10.0.0.0/8')],
  ['cgnat', parseRange('100.64.0.0/10')],
  ['loopback', parseRange('127.0.0.0/8')],
  ['link-local', parseRange('169.254.0.0/16')],
  ['private', parseRange('172.16.0.0/12')],
  ['ietf-protocol', parseRange('192.0.0.0/24')],
  ['documentation', parseRange('192.0.2.0/24')],
  ['6to4-relay', parseRange('192.88.99.0/24')],
  ['private', parseRange('192.168.0.0/16')],
  ['benchmarking', parseRange('198.18.0.0/15')],
  ['documentation', parseRange('198.51.100.0/24')],
  ['documentation', parseRange('203.0.113.0/24')],
  ['multicast', parseRange('224.0.0.0/4')],
  ['reserved', parseRange('240.0.0.0/4')],
];

/** Public v6 unicast lives in 2000::/3; inside it these are special-purpose or tunnel the traffic elsewhere. */
const GLOBAL_V6 = parseRange('2000::/3');
const REFUSED_GLOBAL_V6: ReadonlyArray<[string, Range]> = [
  ['teredo', parseRange('2001::/32')],
  ['benchmarking', parseRange('2001:2::/48')],
  ['orchid', parseRange('2001:10::/28')],
  ['orchid', parseRange('2001:20::/28')],
  ['documentation', parseRange('2001:db8::/32')],
  ['6to4', parseRange('2002::/16')],
  ['documentation', parseRange('3fff::/20')],
];
/** Names for the v6 space outside 2000::/3, all refused; the last entry catches the rest. */
const NAMED_NON_GLOBAL_V6: ReadonlyArray<[string, Range]> = [
  ['unspecified', parseRange('::/128')],
  ['loopback', parseRange('::1/128')],
  ['ipv4-compatible', parseRange('::/96')],
  ['nat64', parseRange('64:ff9b::/96')],
  ['nat64', parseRange('64:ff9b:1::/48')],
  ['discard', parseRange('100::/64')],
  ['metadata', parseRange('fd00:ec2::254/128')],
  ['unique-local', parseRange('fc00::/7')],
  ['link-local', parseRange('fe80::/10')],
  ['site-local', parseRange('fec0::/10')],
  ['multicast', parseRange('ff00::/8')],
];
const METADATA_V4 = parseRange('169.254.169.254/32');
const MAPPED_V6 = parseRange('::ffff:0:0/96');

const within = (address: Address, range: Range): boolean => address.kind() === range[0].kind() && address.match(range);

function refusalV4(address: ipaddr.IPv4): string | null {
  if (within(address, METADATA_V4)) return 'metadata';
  return REFUSED_V4.find(([, range]) => within(address, range))?.[0] ?? null;
}

function refusalV6(address: ipaddr.IPv6): string | null {
  if (within(address, MAPPED_V6)) {
    const embedded = refusalV4(address.toIPv4Address());
    return embedded === null ? null : `ipv4-mapped ${embedded}`;
  }
  if (!within(address, GLOBAL_V6)) {
    return NAMED_NON_GLOBAL_V6.find(([, range]) => within(address, range))?.[0] ?? 'not-global-unicast';
  }
  return REFUSED_GLOBAL_V6.find(([, range]) => within(address, range))?.[0] ?? null;
}

/** The address a connection should use: v4-mapped v6 is connected as plain v4, so it is checked as v4 too. */
function canonical(address: Address): { text: string; family: 4 | 6 } {
  if (address.kind() === 'ipv6' && within(address, MAPPED_V6)) {
    return { text: (address as ipaddr.IPv6).toIPv4Address().toString(), family: 4 };
  }
  return { text: address.toString(), family: address.kind() === 'ipv4' ? 4 : 6 };
}

export function createAddressPolicy(allowNetworks: readonly string[]): AddressPolicy {
  const allowed = allowNetworks.map(parseRange);
  const isWidened = (address: Address): boolean => allowed.some((range) => within(address, range));

  return {
    check(text) {
      if (!ipaddr.isValid(text) || text.includes('%'))
        return { allowed: false, address: text, reason: 'not an IP address' };
      const parsed = ipaddr.parse(text);
      const { text: connectTo, family } = canonical(parsed);
      const asConnected = ipaddr.parse(connectTo);
      if (isWidened(parsed) || isWidened(asConnected)) return { allowed: true, address: connectTo, family };
      const reason = parsed.kind() === 'ipv4' ? refusalV4(parsed as ipaddr.IPv4) : refusalV6(parsed as ipaddr.IPv6);
      return reason === null
        ? { allowed: true, address: connectTo, family }
        : { allowed: false, address: connectTo, reason };
    },
  };
}

export type HostKind = { kind: 'name'; host: string } | { kind: 'ip'; host: string } | { kind: 'odd-ip'; host: string };

/**
 * The characters of every spelling ipaddr.js reads as IPv4 (decimal, octal and hex parts, dots). Its check tells
 * a name by throwing and catching an exception, tens of microseconds with a scan's async stack: names, nearly every
 * host a scan asks for, are told by this test first.
 */
const V4_CHARACTERS = /^[0-9a-fx.]+$/;

const isV4 = (host: string): boolean => V4_CHARACTERS.test(host) && ipaddr.IPv4.isValid(host);

/**
 * Tells a DNS name from an IP literal. Only canonical dotted-quad v4 and plain v6 (brackets allowed, no zone)
 * count as IP literals; anything a URL parser or inet_aton would read as a number (2130706433, 0177.0.0.1,
 * 0x7f.1, 127.1) is an odd spelling, refused outright rather than guessed at.
 */
export function classifyHost(raw: string): HostKind {
  const host = normaliseName(raw);
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (unbracketed.includes(':')) {
    return ipaddr.IPv6.isValid(unbracketed) && !unbracketed.includes('%')
      ? { kind: 'ip', host: unbracketed }
      : { kind: 'odd-ip', host: unbracketed };
  }
  const v4 = isV4(host);
  if (v4 && ipaddr.IPv4.isValidFourPartDecimal(host)) return { kind: 'ip', host };
  // A last label that is a number makes the whole name an IPv4 spelling to URL parsers (WHATWG "ends in a number").
  const last = host.split('.').pop() ?? '';
  if (v4 || /^(?:0x[0-9a-f]*|\d+)$/.test(last)) return { kind: 'odd-ip', host };
  return { kind: 'name', host };
}

/**
 * The host exactly as written in an absolute or scheme-relative URL string, before WHATWG parsing rewrites
 * numeric spellings into dotted quads; null for a relative reference without an authority.
 */
export function rawUrlHost(url: string): string | null {
  const m = /^(?:[a-z][a-z0-9+.-]*:)?[/\\]{2}(?:[^@/?#\\]*@)?(\[[^\]]*\]|[^:/?#\\]*)/i.exec(
    trimOf(url, C0_CONTROL_OR_SPACE),
  );
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!;
  }
}
