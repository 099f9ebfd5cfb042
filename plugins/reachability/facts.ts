// The shapes of the reachability namespace (schemas/observations/reachability.json) and the lists derived from
// the per-address facts, which let rules compare addresses without reaching across list items.
import type { Skipped } from './published.ts';

export interface TlsFacts {
  error: string | null;
  protocol: string | null;
  alpn: string | null;
  certificate_valid: boolean | null;
  authorization_error: string | null;
  leaf_sha256: string | null;
}

export interface HttpsFacts {
  status: number | null;
  error: string | null;
  location: string | null;
  body_sha256: string | null;
  body_bytes: number | null;
  truncated: boolean | null;
}

export interface HttpFacts {
  status: number | null;
  error: string | null;
  location: string | null;
}

export interface AddressFacts {
  address: string;
  family: 4 | 6;
  probed: boolean;
  skipped: Skipped | null;
  tls: TlsFacts | null;
  https: HttpsFacts | null;
  http: HttpFacts | null;
}

export interface HostFacts {
  host: string;
  dns_error: string | null;
  published_v4: number;
  published_v6: number;
  addresses: AddressFacts[];
  leaf_sha256s: string[];
  https_statuses: number[];
  body_sha256s: string[];
}

function distinct<T extends string | number>(values: readonly (T | null | undefined)[]): T[] {
  const set = new Set<T>();
  for (const v of values) if (v !== null && v !== undefined) set.add(v);
  return [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The distinct certificates, statuses and bodies the probed addresses answered with. */
export function distinctAnswers(
  addresses: readonly AddressFacts[],
): Pick<HostFacts, 'leaf_sha256s' | 'https_statuses' | 'body_sha256s'> {
  return {
    leaf_sha256s: distinct(addresses.map((a) => a.tls?.leaf_sha256)),
    https_statuses: distinct(addresses.map((a) => a.https?.status)),
    body_sha256s: distinct(addresses.map((a) => a.https?.body_sha256)),
  };
}
