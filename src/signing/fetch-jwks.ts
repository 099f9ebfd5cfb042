// Fetches an issuer's JWK set for `dvs verify`. The URL comes from the certificate being verified, so it is
// as untrusted as any scanned host: the request goes through the guarded network layer (configured resolver,
// address policy, the configured trust store, limits), over https only, without following redirects.
import type { Net } from '../net/types.ts';
import { parseJwks, type Jwks } from './jwks.ts';

/** A JWK set of a few keys is a few hundred bytes; anything near this is not one. */
const MAX_JWKS_BYTES = 64 * 1024;

export async function fetchJwks(url: string, net: Pick<Net, 'request'>): Promise<Jwks> {
  if (new URL(url).protocol !== 'https:') throw new Error(`${url}: a JWK set is only fetched over https`);
  const res = await net.request(url, {
    maxBodyBytes: MAX_JWKS_BYTES,
    headers: { accept: 'application/jwk-set+json, application/json' },
  });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  if (res.truncated) throw new Error(`${url}: larger than ${MAX_JWKS_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body.toString('utf8'));
  } catch (err) {
    throw new Error(`${url}: not JSON (${(err as Error).message})`);
  }
  return parseJwks(parsed, url);
}
