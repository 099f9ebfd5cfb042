// The shapes of the reachability namespace, derived from the types generated from
// schemas/observations/reachability.json, and the lists derived from the per-address facts, which let rules
// compare addresses without reaching across list items.
import type {
  Address,
  HandshakeAddress,
  Handshakes,
  Host,
  Http,
  Https,
  Tls,
} from '../../src/lib/schema-types/observations/reachability.ts';

export type TlsFacts = Tls;
export type HttpsFacts = Https;
export type HttpFacts = Http;
export type AddressFacts = Address;
export type HostFacts = Host;
export type HandshakeAddressFacts = HandshakeAddress;
export type HandshakeFacts = Handshakes;

function distinct<T extends string | number>(values: readonly (T | null | undefined)[]): T[] {
  const set = new Set<T>();
  for (const v of values) if (v !== null && v !== undefined) set.add(v);
  return [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The distinct certificates, statuses and bodies the probed addresses answered with. */
export function distinctAnswers(
  addresses: readonly (AddressFacts | HandshakeAddressFacts)[],
): Pick<HostFacts, 'leaf_sha256s' | 'https_statuses' | 'body_sha256s'> {
  return {
    leaf_sha256s: distinct(addresses.map((a) => a.tls?.leaf_sha256)),
    https_statuses: distinct(addresses.map((a) => ('https' in a ? a.https?.status : null))),
    body_sha256s: distinct(addresses.map((a) => ('https' in a ? a.https?.body_sha256 : null))),
  };
}
