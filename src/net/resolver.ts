// Host name to policy-checked addresses, through the raw DNS client only: the operating system's resolver is
// never asked about a scanned host, so the address that was checked is the address that gets connected to.
import { NetError, type DnsResponse, type ResolvedAddress } from './types.ts';
import type { DnsClient } from './dns-client.ts';
import { classifyHost, type AddressPolicy } from './address-policy.ts';
import { normaliseName } from '../lib/domain-name.ts';
import { waitUnder } from './on-abort.ts';

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
 * One resolver per scan. A name is looked up once and the outcome, addresses or failure, is kept for the scan:
 * every probe connects to the same checked addresses and sees the same DNS, and a resolver that does not answer
 * costs one timeout per scan rather than one per request. The shared lookup runs under no caller's signal (the
 * DNS timeout bounds it), so one caller giving up never fails the others; each waits under its own signal.
 */
export function createResolver(dns: DnsClient, policy: AddressPolicy): Resolver {
  const lookups = new Map<string, Promise<ResolvedAddress[]>>();
  const refuse = (host: string, refused: string[]): NetError =>
    new NetError('policy_refused', `${host} has no address this service may connect to`, refused.join(', '));

  function allowedOnly(host: string, addresses: string[]): ResolvedAddress[] {
    const verdicts = addresses.map((a) => policy.check(a));
    const allowed: ResolvedAddress[] = [];
    for (const v of verdicts) {
      if (v.allowed && !allowed.some((a) => a.address === v.address))
        allowed.push({ address: v.address, family: v.family });
    }
    if (allowed.length === 0)
      throw refuse(
        host,
        verdicts.map((v) => (v.allowed ? v.address : `${v.address} (${v.reason})`)),
      );
    return allowed;
  }

  async function lookup(name: string): Promise<ResolvedAddress[]> {
    const [a, aaaa] = await Promise.allSettled([dns.query(name, 'A'), dns.query(name, 'AAAA')]);
    const found = [a, aaaa].flatMap((r, i) =>
      r.status === 'fulfilled' && r.value.rcode === 'NOERROR' ? addressesIn(r.value, name, i === 0 ? 'A' : 'AAAA') : [],
    );
    if (found.length > 0) return allowedOnly(name, found);
    for (const r of [a, aaaa]) if (r.status === 'rejected') throw r.reason;
    const rcode = (a as PromiseFulfilledResult<DnsResponse>).value.rcode;
    const code = RCODE_ERRORS[rcode];
    if (code) throw new NetError(code, `${name}: ${rcode}`);
    if (rcode !== 'NOERROR') throw new NetError('dns_error', `${name}: ${rcode}`);
    throw new NetError('dns_nodata', `${name} has no A or AAAA record`);
  }

  return {
    async resolve(rawHost, opts = {}) {
      const classified = classifyHost(rawHost);
      if (classified.kind === 'odd-ip') {
        throw new NetError(
          'policy_refused',
          `${rawHost} is an IP address in a non-canonical spelling`,
          classified.host,
        );
      }
      if (classified.kind === 'ip') return allowedOnly(classified.host, [classified.host]);
      const name = normaliseName(classified.host);
      let pending = lookups.get(name);
      if (!pending) {
        pending = lookup(name);
        lookups.set(name, pending);
        pending.catch(() => undefined);
      }
      return waitUnder(pending, opts.signal);
    },

    checkAddress(address) {
      const verdict = policy.check(address.address);
      if (!verdict.allowed) throw refuse(address.address, [`${verdict.address} (${verdict.reason})`]);
      return { address: verdict.address, family: verdict.family };
    },
  };
}
