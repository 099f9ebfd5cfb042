// TXT lookups for anchor verification through node:dns, on the configured resolvers (DVS_DNS_SERVERS) or the
// system's. Verification takes the lookup as a function so tests can hand it a fake.
import { Resolver } from 'node:dns/promises';
import type { TxtLookup } from './verify.ts';

/** Answer codes that mean "the name holds no TXT record", as opposed to a lookup that failed. */
const NO_RECORDS = new Set(['ENOTFOUND', 'ENODATA']);

export function dnsTxtLookup(options: { servers: string[]; timeoutMs: number }): TxtLookup {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: 2 });
  if (options.servers.length > 0) resolver.setServers(options.servers);
  return async (name) => {
    try {
      return await resolver.resolveTxt(name);
    } catch (err) {
      if (NO_RECORDS.has((err as NodeJS.ErrnoException).code ?? '')) return null;
      throw err;
    }
  };
}
