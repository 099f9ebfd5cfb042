// The methods the home page's OPTIONS answer advertises in Allow.
import type { Net } from '../../src/net/types.ts';
import { fetchOnce } from './fetch-chain.ts';
import { header } from './parse-headers.ts';
import type { MethodsFacet } from './types.ts';
import { SPACE_OR_TAB, trimOf } from '../../src/lib/trim.ts';

export async function collectMethods(net: Net, pageUrl: string, signal: AbortSignal): Promise<MethodsFacet> {
  const { ex, error } = await fetchOnce(net, pageUrl, signal, { method: 'OPTIONS', maxBodyBytes: 1024 });
  const allow = ex === null ? null : header(ex.headers, 'allow');
  return {
    options_status: ex?.status ?? null,
    error,
    allow:
      allow === null
        ? []
        : [
            ...new Set(
              allow
                .split(',')
                .map((m) => trimOf(m, SPACE_OR_TAB).toUpperCase())
                .filter((m) => m !== ''),
            ),
          ].sort(),
  };
}
