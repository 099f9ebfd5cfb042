// Host name to policy-checked addresses, through the raw DNS client only: the operating system's resolver is
// never asked about a scanned host, so the address that was checked is the address that gets connected to.
import { NetError, type DnsResponse, type ResolvedAddress } from './types.ts';
import type { DnsClient } from './dns-client.ts';
import { classifyHost, type AddressPolicy } from './address-policy.ts';
import { normaliseName } from './dns-records.ts';

export interface Resolver {
  resolve(host: string, opts?: { signal?: AbortSignal }): Promise<ResolvedAddress[]>;
  /** Checks an address a caller chose itself (per-address probes); throws policy_refused. */
  checkAddress(address: ResolvedAddress): ResolvedAddress;
}

const MAX_CNAME_HOPS = 16;

/** The addresses of `name` in one answer section, following its CNAME chain. */
function addressesIn(response: DnsResponse, name: string, type: 'A' | 'AAAA'): string[] {
  let target = name;
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    const alias = response.answers.find((r) => r.type === 'CNAME' && r.name === target);
    if (!alias) break;
    target = alias.data as string;
  }
  return response.answers.filter((r) => r.type === type && r.name === target).map((r) => r.data as string);
}

const RCODE_ERRORS: Record<string, NetError['code']> = {
  NXDOMAIN: 'dns_nxdomain',
  SERVFAIL: 'dns_servfail',
  REFUSED: 'dns_refused',
};

/**
 * One resolver per scan. A name's addresses are looked up once and kept for the scan, so every probe connects
 * to the same checked addresses; failures are not kept (a retry may succeed).
 */
export function createResolver(dns: DnsClient, policy: AddressPolicy): Resolver {
  const resolved = new Map<string, ResolvedAddress[]>();
  const refuse = (host: string, refused: string[]): NetError =>
    new NetError('policy_refused', `${host} has no address this service may connect to`, refused.join(', '));

  function allowedOnly(host: string, addresses: string[]): ResolvedAddress[] {
    const verdicts = addresses.map((a) => policy.check(a));
    const allowed: ResolvedAddress[] = [];
    for (const v of verdicts) {
      if (v.allowed && !allowed.some((a) => a.address === v.address)) allowed.push({ address: v.address, family: v.family });
    }
    if (allowed.length === 0) throw refuse(host, verdicts.map((v) => (v.allowed ? v.address : `${v.address} (${v.reason})`)));
    return allowed;
  }

  return {
    async resolve(rawHost, opts = {}) {
      const classified = classifyHost(rawHost);
      if (classified.kind === 'odd-ip') {
        throw new NetError('policy_refused', `${rawHost} is an IP address in a non-canonical spelling`, classified.host);
      }
      if (classified.kind === 'ip') return allowedOnly(classified.host, [classified.host]);
      const name = normaliseName(classified.host);
      const known = resolved.get(name);
      if (known) return known;
      const [a, aaaa] = await Promise.allSettled([
        dns.query(name, 'A', { signal: opts.signal }),
        dns.query(name, 'AAAA', { signal: opts.signal }),
      ]);
      const found = [a, aaaa].flatMap((r, i) =>
        r.status === 'fulfilled' && r.value.rcode === 'NOERROR' ? addressesIn(r.value, name, i === 0 ? 'A' : 'AAAA') : [],
      );
      if (found.length > 0) {
        const addresses = allowedOnly(name, found);
        resolved.set(name, addresses);
        return addresses;
      }
      for (const r of [a, aaaa]) if (r.status === 'rejected') throw r.reason;
      const rcode = (a as PromiseFulfilledResult<DnsResponse>).value.rcode;
      const code = RCODE_ERRORS[rcode];
      if (code) throw new NetError(code, `${name}: ${rcode}`);
      if (rcode !== 'NOERROR') throw new NetError('dns_error', `${name}: ${rcode}`);
      throw new NetError('dns_nodata', `${name} has no A or AAAA record`);
    },

    checkAddress(address) {
      const verdict = policy.check(address.address);
      if (!verdict.allowed) throw refuse(address.address, [`${verdict.address} (${verdict.reason})`]);
      return { address: verdict.address, family: verdict.family };
    },
  };
}
