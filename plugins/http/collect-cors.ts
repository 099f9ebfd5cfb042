// CORS as the home page answers it: once for a foreign origin and once for the `null` origin (sandboxed
// documents and file: pages send it), the two origins a credentialed reflection would expose data to.
import type { Net } from '../../src/net/types.ts';
import { fetchOnce } from './fetch-chain.ts';
import { header, trimmedHeader, varyList } from './parse-headers.ts';
import type { CorsFacet } from './types.ts';
import { foreignOrigin } from './urls.ts';

export async function collectCors(net: Net, domain: string, pageUrl: string, signal: AbortSignal): Promise<CorsFacet> {
  const origin = foreignOrigin(domain);
  const [foreign, nullOrigin] = await Promise.all([
    fetchOnce(net, pageUrl, signal, { headers: { origin }, maxBodyBytes: 1024 }),
    fetchOnce(net, pageUrl, signal, { headers: { origin: 'null' }, maxBodyBytes: 1024 }),
  ]);
  const h = foreign.ex?.headers ?? {};
  const n = nullOrigin.ex?.headers ?? {};
  return {
    origin_sent: origin,
    status: foreign.ex?.status ?? null,
    error: foreign.error,
    acao: trimmedHeader(h, 'access-control-allow-origin'),
    acac: trimmedHeader(h, 'access-control-allow-credentials')?.toLowerCase() ?? null,
    vary_origin: foreign.ex ? varyList(header(h, 'vary')).some((t) => t === 'origin' || t === '*') : null,
    null_origin_status: nullOrigin.ex?.status ?? null,
    null_origin_acao: trimmedHeader(n, 'access-control-allow-origin'),
    null_origin_acac: trimmedHeader(n, 'access-control-allow-credentials')?.toLowerCase() ?? null,
  };
}
