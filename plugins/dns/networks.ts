// The network an address sits in, for nameserver diversity (RFC 2182 section 3.1): the IPv4 /24 or IPv6 /48.
import ipaddr from 'ipaddr.js';

/** "192.0.2.0/24" or "2001:db8:1::/48"; null for a string that is not an address. */
export function networkOf(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') {
    const [a, b, c] = parsed.toByteArray();
    return `${a}.${b}.${c}.0/24`;
  }
  const bytes = parsed.toByteArray().map((byte, i) => (i < 6 ? byte : 0));
  return `${ipaddr.fromByteArray(bytes).toString()}/48`;
}

/** Distinct networks of a list of addresses, sorted. */
export function distinctNetworks(addresses: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const a of addresses) {
    const n = networkOf(a);
    if (n !== null) out.add(n);
  }
  return [...out].sort();
}
