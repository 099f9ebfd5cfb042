// The reachability probe: every published address of the domain and of www, each probed on its own over IPv4
// and IPv6, so no verdict rests on the one address a resolver happened to return first.
import schema from '../../schemas/observations/reachability.json' with { type: 'json' };
import type { ProbeProvider } from '../../src/engine/types.ts';
import { collectHost } from './collect-host.ts';

export const provider: ProbeProvider = {
  name: 'reachability',
  version: '1.0.0',
  schema,
  async collect(domain, ctx) {
    const { net, signal } = ctx;
    const host = domain.toLowerCase().replace(/\.$/, '');
    const [apex, www] = await Promise.all([
      ctx.needs('reachability.apex') ? collectHost(net, host, signal) : null,
      ctx.needs('reachability.www') ? collectHost(net, `www.${host}`, signal) : null,
    ]);
    const out: Record<string, unknown> = {};
    if (apex) out.apex = apex;
    if (www) out.www = www;
    return out;
  },
};
