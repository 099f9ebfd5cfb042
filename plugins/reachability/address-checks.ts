// One address of a host, on its own: its TLS handshake, GET / over HTTPS and GET / over plain HTTP, each pinned to
// the address so that a dead or misconfigured node cannot hide behind a healthy one. The handshake observed is the
// one of the connection the scan's requests to the address use: a connection of its own would repeat it.
import { createHash } from 'node:crypto';
import { failureFact } from '../../src/net/failure-fact.ts';
import type { Net, ResolvedAddress, TlsHandshake } from '../../src/net/types.ts';
import type { HttpFacts, HttpsFacts, TlsFacts } from './facts.ts';
import { locationOf } from '../../src/net/location.ts';

/** Enough of the home page to tell two nodes' answers apart, bounded so a large page costs little. */
export const BODY_CAP_BYTES = 256 * 1024;

/** Plain HTTP is asked only for its status and Location. */
const PLAIN_BODY_CAP_BYTES = 1024;

/** `scheme://host[:port]/`, the port left out when it is the scheme's default. */
export function rootUrl(scheme: 'http' | 'https', host: string, port: number): string {
  const defaultPort = scheme === 'http' ? 80 : 443;
  return `${scheme}://${host}${port === defaultPort ? '' : `:${port}`}/`;
}

/** The handshake of the scan's HTTPS connection to the address, the one its requests use (src/net). */
export async function probeTls(net: Net, host: string, pin: ResolvedAddress, signal: AbortSignal): Promise<TlsFacts> {
  let handshake: TlsHandshake;
  try {
    handshake = await net.handshake(rootUrl('https', host, net.ports.https), { address: pin, signal });
  } catch (err) {
    return {
      error: failureFact(err),
      protocol: null,
      alpn: null,
      certificate_valid: null,
      authorization_error: null,
      leaf_sha256: null,
    };
  }
  const { protocol, alpn, authorized, authorizationError } = handshake;
  const leaf = handshake.chain[0];
  return {
    error: null,
    protocol,
    alpn,
    certificate_valid: authorized,
    authorization_error: authorizationError,
    leaf_sha256: leaf ? createHash('sha256').update(leaf).digest('hex') : null,
  };
}

export async function probeHttps(
  net: Net,
  host: string,
  pin: ResolvedAddress,
  signal: AbortSignal,
): Promise<HttpsFacts> {
  try {
    const res = await net.request(rootUrl('https', host, net.ports.https), {
      address: pin,
      maxBodyBytes: BODY_CAP_BYTES,
      signal,
    });
    return {
      status: res.status,
      error: null,
      location: locationOf(res.fieldLines.location),
      body_sha256: createHash('sha256').update(res.body).digest('hex'),
      body_bytes: res.body.length,
      truncated: res.truncated,
    };
  } catch (err) {
    return {
      status: null,
      error: failureFact(err),
      location: null,
      body_sha256: null,
      body_bytes: null,
      truncated: null,
    };
  }
}

export async function probeHttp(net: Net, host: string, pin: ResolvedAddress, signal: AbortSignal): Promise<HttpFacts> {
  try {
    const res = await net.request(rootUrl('http', host, net.ports.http), {
      address: pin,
      maxBodyBytes: PLAIN_BODY_CAP_BYTES,
      signal,
    });
    return { status: res.status, error: null, location: locationOf(res.fieldLines.location) };
  } catch (err) {
    return { status: null, error: failureFact(err), location: null };
  }
}
