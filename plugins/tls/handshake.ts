// Runs handshakes through the guarded network and turns their end into a fact: accepted (with what was read from
// the live socket), refused by the server (a TLS-level answer), or failed before the server could say (null facts).
import { notObserved } from '../../src/net/failure-fact.ts';
import { siteUrl } from '../../src/net/site-url.ts';
import type { NetError, Net, TlsConnection, TlsConnectOptions, TlsHandshake } from '../../src/net/types.ts';

export type Attempt<T> =
  { outcome: 'accepted'; value: T } | { outcome: 'refused'; error: string } | { outcome: 'failed'; error: string };

/** NetError codes that mean the server answered the handshake and declined it. */
const REFUSAL_CODES = new Set(['tls_error', 'protocol_error']);

/** OpenSSL codes raised when the local client cannot offer what was asked: no fact about the server. */
const LOCAL_CODES = new Set([
  'ERR_SSL_NO_CIPHER_MATCH',
  'ERR_SSL_NO_CIPHERS_AVAILABLE',
  'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
  'ERR_SSL_LEGACY_SIGALG_DISALLOWED_OR_UNSUPPORTED',
]);

export function errorCode(err: unknown): { refused: boolean; code: string } {
  // What is not a NetError is a bug in the probe, and a deadline is no fact: both propagate (see failure-fact.ts).
  if (notObserved(err)) throw err;
  const { code: netCode, detail } = err as NetError;
  const code = detail ?? netCode;
  return { refused: REFUSAL_CODES.has(netCode) && !LOCAL_CODES.has(code), code };
}

/** A handshake that did not complete, refused by the server or failed before it could answer. */
function failed(err: unknown): Exclude<Attempt<never>, { outcome: 'accepted' }> {
  const { refused, code } = errorCode(err);
  return refused ? { outcome: 'refused', error: code } : { outcome: 'failed', error: code };
}

/**
 * Options of a handshake that only asks what the server accepts (a version, a cipher, a signature algorithm): the
 * chain is the default handshake's to judge, so these are made without a trust store, whose contexts cost nothing
 * to build (see TlsConnectOptions.verify).
 */
export const UNVERIFIED = { verify: false } as const;

/** One handshake; `read` runs on the live connection, which is always destroyed afterwards. */
export async function attempt<T>(
  net: Net,
  host: string,
  opts: TlsConnectOptions,
  read: (conn: TlsConnection) => T,
): Promise<Attempt<T>> {
  let conn: TlsConnection;
  try {
    conn = await net.tls(host, { port: net.ports.https, servername: host, ...opts });
  } catch (err) {
    return failed(err);
  }
  try {
    return { outcome: 'accepted', value: read(conn) };
  } finally {
    conn.socket.destroy();
  }
}

/**
 * The handshake of the scan's HTTPS connection to `host` (the one its requests use, src/net), as an attempt: the
 * facets that describe what a modern client negotiates read it rather than making a handshake of their own.
 */
export async function observed(net: Net, host: string, signal: AbortSignal): Promise<Attempt<TlsHandshake>> {
  try {
    return { outcome: 'accepted', value: await net.handshake(siteUrl('https', host, net.ports), { signal }) };
  } catch (err) {
    return failed(err);
  }
}

/** accepted -> true, refused -> false, failed -> null (could not tell). */
export function acceptance(a: Attempt<unknown>): boolean | null {
  return a.outcome === 'accepted' ? true : a.outcome === 'refused' ? false : null;
}

/** The error of the first attempt that failed before the server could answer. */
export function firstFailure(attempts: readonly Attempt<unknown>[]): string | null {
  for (const a of attempts) if (a.outcome === 'failed') return a.error;
  return null;
}

/** Maps over items with at most `limit` in flight, keeping the input order. */
export async function mapLimited<I, O>(items: readonly I[], limit: number, fn: (item: I) => Promise<O>): Promise<O[]> {
  const out = new Array<O>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
