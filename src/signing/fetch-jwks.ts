// Fetches a trusted issuer's JWK set for `dvs verify`, over the issuer's own client (https, one origin, no
// redirects, bounded), and parses it strictly.
import type { IssuerClient } from './issuer-client.ts';
import { parseJwks, type Jwks } from './jwks.ts';

/** A JWK set of a few keys is a few hundred bytes; anything near this is not one. */
const MAX_JWKS_BYTES = 64 * 1024;

export async function fetchJwks(client: IssuerClient, pathname: string): Promise<Jwks> {
  return parseJwks(await client.getJson(pathname, MAX_JWKS_BYTES), client.origin + pathname);
}
