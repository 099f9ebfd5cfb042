// TLS secure contexts shared by every connection with the same trust store and options. A context is built on
// Node's own root store, parsed once per process, and given only the store's other certificates: passing all
// ~150 roots as `ca` had OpenSSL parse them again for every context, 45 ms of blocked event loop each (a scan's
// TLS probe needs several), which starved concurrent scans and took a third of a `dvs scan` process.
import { createHash } from 'node:crypto';
import { createSecureContext, rootCertificates, type SecureContext, type SecureContextOptions } from 'node:tls';

/**
 * The options of a context that probes vary; everything else about a connection is set per socket. `verify: false`
 * gives a context with an empty trust store, which costs nothing to build, where a verifying one copies Node's
 * parsed roots (about 2 ms; the TLS probe's capability handshakes need a dozen contexts).
 */
export type ContextOptions = Pick<
  SecureContextOptions,
  'minVersion' | 'maxVersion' | 'ciphers' | 'sigalgs' | 'ecdhCurve'
> & {
  verify?: boolean;
};

export interface SecureContexts {
  get(options?: ContextOptions): SecureContext;
}

/**
 * A context made without `ca` trusts Node's default store: its bundled roots (`rootCertificates`), plus
 * NODE_EXTRA_CA_CERTS when the environment sets it. Adding a certificate to such a context gives it a store of its
 * own, the bundled roots (parsed once per process) plus that certificate, and never the environment's: a scan does
 * not trust what the operator added for the service's own outgoing calls (test/net/trust-environment.test.ts).
 * Started with the system's store instead (`--use-openssl-ca`, `--use-system-ca`), that copy would be the system's,
 * so contexts are then given the whole trust store as `ca`, which OpenSSL parses again for each.
 */
const copiesBundledRoots = ((): boolean => {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return !flags.some((f) => /^--use-(openssl|system)-ca/.test(f));
})();

/** Probes use a small fixed set of option combinations; the bound only guards against trust-store churn. */
const MAX_CONTEXTS = 128;
const cache = new Map<string, SecureContext>();
/** The store's digest and the certificates it adds to Node's roots, by array: one array per store (trust-store.ts). */
const stores = new WeakMap<readonly string[], { digest: string; added: readonly string[] }>();

export function secureContexts(ca: readonly string[]): SecureContexts {
  let store = stores.get(ca);
  if (store === undefined) {
    const roots = new Set(rootCertificates);
    const added = ca.filter((pem) => !roots.has(pem));
    store = { digest: createHash('sha256').update(ca.join('\n')).digest('hex'), added };
    stores.set(ca, store);
  }
  const { digest, added } = store;
  return {
    get(options = {}) {
      const { minVersion, maxVersion, ciphers, sigalgs, ecdhCurve } = options;
      const verify = options.verify !== false;
      // An unverified context trusts nothing, whatever the store: one serves every store.
      const key = `${verify ? digest : 'none'} ${JSON.stringify([minVersion, maxVersion, ciphers, sigalgs, ecdhCurve])}`;
      const cached = cache.get(key);
      if (cached) {
        // Re-inserted so the map's order is least recently used first.
        cache.delete(key);
        cache.set(key, cached);
        return cached;
      }
      const chosen = { minVersion, maxVersion, ciphers, sigalgs, ecdhCurve };
      const trust = !verify ? { ca: [] } : copiesBundledRoots ? {} : { ca: [...ca] };
      const context = createSecureContext({ ...chosen, ...trust });
      // With nothing to add, one of the bundled roots is added again: the store becomes the context's own copy.
      if (verify && copiesBundledRoots)
        for (const pem of added.length > 0 ? added : rootCertificates.slice(0, 1))
          (context.context as { addCACert(pem: string): void }).addCACert(pem);
      cache.set(key, context);
      if (cache.size > MAX_CONTEXTS) cache.delete(cache.keys().next().value!);
      return context;
    },
  };
}
