// TLS secure contexts shared by every connection with the same trust store and options. Building one parses
// every root certificate, tens of milliseconds of blocked event loop; one per handshake (a full scan makes
// dozens) starves concurrent scans, whose timers then fire late and whose DNS and requests time out.
//
// When the store is Node's bundled roots plus extras, a context starts from Node's default root store (parsed
// once per process and shared) and adds only the extras: passing all ~145 roots as `ca` parses each of them
// again for every context, 40 ms of CPU apiece and three contexts in a Quick Scan. The trusted set is the same.
import { createHash } from 'node:crypto';
import process from 'node:process';
import { createSecureContext, rootCertificates, type SecureContext, type SecureContextOptions } from 'node:tls';

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

/**
 * Whether Node's default store is exactly `tls.rootCertificates`: not when it was told to use OpenSSL's or the
 * system's store, or to add NODE_EXTRA_CA_CERTS.
 */
function defaultStoreIsBundled(): boolean {
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  return process.env.NODE_EXTRA_CA_CERTS === undefined && !/--use-(?:openssl|system)-ca\b/.test(flags);
}

/** The certificates of `ca` after the bundled roots when it starts with all of them, else null. */
function extrasOverBundled(ca: readonly string[]): readonly string[] | null {
  if (ca.length < rootCertificates.length || !defaultStoreIsBundled()) return null;
  for (let i = 0; i < rootCertificates.length; i++) if (ca[i] !== rootCertificates[i]) return null;
  return ca.slice(rootCertificates.length);
}

/** `context` is Node's native context; addCACert is what the `ca` option itself calls for each certificate. */
interface NativeContext {
  addCACert(pem: string): void;
}

function buildContext(ca: readonly string[], extras: readonly string[] | null, options: ContextOptions): SecureContext {
  if (extras === null) return createSecureContext({ ...options, ca: [...ca] });
  const context = createSecureContext(options);
  for (const pem of extras) (context.context as NativeContext).addCACert(pem);
  return context;
}

export function secureContexts(ca: readonly string[]): SecureContexts {
  let trust = digests.get(ca);
  const extras = extrasOverBundled(ca);
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
      const context = buildContext(ca, extras, { minVersion, maxVersion, ciphers, sigalgs, ecdhCurve });
      cache.set(key, context);
      if (cache.size > MAX_CONTEXTS) cache.delete(cache.keys().next().value!);
      return context;
    },
  };
}
