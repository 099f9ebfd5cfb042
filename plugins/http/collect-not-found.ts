// What the site answers for a path that cannot exist: a real 404, a redirect, or a soft 404 (status 200,
// often the home page itself, which makes every presence check on the site meaningless).
import { parseContentType } from '../../src/net/content-type.ts';
import { siteUrl } from '../../src/net/site-url.ts';
import type { HttpExchange, Net } from '../../src/net/types.ts';
import { sha256 } from './body.ts';
import { fetchOnce } from './fetch-chain.ts';
import { header } from './parse-headers.ts';
import type { NotFoundFacet } from './types.ts';
import { notFoundPath } from './urls.ts';

/** `home` is the home page response, whose body a soft 404 often repeats. */
export async function collectNotFound(
  net: Net,
  domain: string,
  home: HttpExchange | null,
  signal: AbortSignal,
): Promise<NotFoundFacet> {
  const path = notFoundPath(domain);
  const { ex, error } = await fetchOnce(net, siteUrl('https', domain, net.ports, path), signal, {
    followRedirects: true,
    decompress: true,
  });
  if (ex === null) {
    return {
      path,
      first_status: null,
      status: null,
      error,
      redirects: 0,
      content_type: null,
      redirected_to_root: null,
      same_body_as_root: null,
    };
  }
  return {
    path,
    first_status: ex.chain[0]?.status ?? ex.status,
    status: ex.status,
    error: null,
    redirects: Math.max(0, ex.chain.length - 1),
    content_type: parseContentType(header(ex.headers, 'content-type')).mediaType,
    redirected_to_root: ex.chain.length > 1 ? new URL(ex.url).pathname === '/' : false,
    same_body_as_root: home === null ? null : sha256(ex.body) === sha256(home.body),
  };
}
