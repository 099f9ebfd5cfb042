// Which addresses a name publishes and which of them the probe connects to. Pure: DNS answers and the policy's
// verdicts in, a deterministic plan out, so two scans of one domain probe the same addresses.
import ipaddr from 'ipaddr.js';
import type { DnsRecord } from '../../src/net/types.ts';
import { normaliseName } from '../../src/lib/domain-name.ts';

/** At most this many addresses per family are probed; the rest are listed, not connected to. */
export const MAX_PER_FAMILY = 4;

const MAX_CNAME_HOPS = 16;

export type Skipped = 'policy_refused' | 'over_limit';

export interface PlannedAddress {
  address: string;
  family: 4 | 6;
  /** Null when the address is to be probed. */
  skipped: Skipped | null;
}

/** The canonical spelling of an address (RFC 5952 for IPv6), or null for data that is not one. */
export function canonicalAddress(text: string): string | null {
  return ipaddr.isValid(text) ? ipaddr.parse(text).toString() : null;
}

function lowerName(name: string): string {
  return normaliseName(name);
}

/** The A or AAAA data for `host` in one answer section, after its CNAME chain, canonical and de-duplicated. */
export function publishedAddresses(answers: readonly DnsRecord[], host: string, type: 'A' | 'AAAA'): string[] {
  let target = lowerName(host);
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    const alias = answers.find((r) => r.type === 'CNAME' && lowerName(r.name) === target);
    if (!alias) break;
    target = lowerName(String(alias.data));
  }
  const out = new Set<string>();
  for (const r of answers) {
    if (r.type !== type || lowerName(r.name) !== target) continue;
    const address = canonicalAddress(String(r.data));
    if (address !== null) out.add(address);
  }
  return [...out];
}

function bytesOf(address: string): number[] {
  return ipaddr.parse(address).toByteArray();
}

/** Byte order, so 127.0.0.9 sorts before 127.0.0.10. */
export function compareAddresses(a: string, b: string): number {
  const x = bytesOf(a);
  const y = bytesOf(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * The published addresses, IPv4 first and each family in byte order, each marked to be probed unless the
 * policy refuses it (not in `allowed`) or its family already has MAX_PER_FAMILY probed ones.
 */
export function planAddresses(
  v4: readonly string[],
  v6: readonly string[],
  allowed: ReadonlySet<string>,
): PlannedAddress[] {
  const plan: PlannedAddress[] = [];
  for (const [family, list] of [
    [4, v4],
    [6, v6],
  ] as const) {
    let probed = 0;
    for (const address of [...list].sort(compareAddresses)) {
      let skipped: Skipped | null = null;
      if (!allowed.has(address)) skipped = 'policy_refused';
      else if (probed >= MAX_PER_FAMILY) skipped = 'over_limit';
      else probed++;
      plan.push({ address, family, skipped });
    }
  }
  return plan;
}
