// TLS secure contexts shared by every connection with the same trust store and options. Building one parses
// every root certificate, tens of milliseconds of blocked event loop; one per handshake (a full scan makes
// dozens) starves concurrent scans, whose timers then fire late and whose DNS and requests time out.
import { createHash } from 'node:crypto';
import { createSecureContext, type SecureContext, type SecureContextOptions } from 'node:tls';

/** The options of a context that probes vary; everything else about a connection is set per socket. */
export type ContextOptions = Pick<
  SecureContextOptions,
  'minVersion' | 'maxVersion' | 'ciphers' | 'sigalgs' | 'ecdhCurve'
>;

export interface SecureContexts {
  get(options?: ContextOptions): SecureContext;
}

/** Probes use a small fixed set of option combinations; the bound only guards against trust-store churn. */
const MAX_CONTEXTS = 128;
const cache = new Map<string, SecureContext>();
/** The store's digest by array: the network layer keeps one array per store (trust-store.ts). */
const digests = new WeakMap<readonly string[], string>();

export function secureContexts(ca: readonly string[]): SecureContexts {
  let trust = digests.get(ca);
  if (trust === undefined) {
    trust = createHash('sha256').update(ca.join('\n')).digest('hex');
    digests.set(ca, trust);
  }
  return {
    get(options = {}) {
      const { minVersion, maxVersion, ciphers, sigalgs, ecdhCurve } = options;
      const key = `${trust} ${JSON.stringify([minVersion, maxVersion, ciphers, sigalgs, ecdhCurve])}`;
      const cached = cache.get(key);
      if (cached) {
        // Re-inserted so the map's order is least recently used first.
        cache.delete(key);
        cache.set(key, cached);
        return cached;
      }
      const context = createSecureContext({ ca: [...ca], minVersion, maxVersion, ciphers, sigalgs, ecdhCurve });
      cache.set(key, context);
      if (cache.size > MAX_CONTEXTS) cache.delete(cache.keys().next().value!);
      return context;
    },
  };
}
