// The reachability probe: every published address of the domain and of www, each probed on its own over IPv4
// and IPv6, so no verdict rests on the one address a resolver happened to return first.
import schema from '../../schemas/observations/reachability.json' with { type: 'json' };
import type { ProbeProvider } from '../../src/engine/types.ts';
import type { ReachabilityObservations } from '../../src/lib/schema-types/observations/reachability.ts';
import { collectHandshakes, collectHost, handshakesOf } from './collect-host.ts';
import { normaliseName } from '../../src/lib/domain-name.ts';

export const provider: ProbeProvider<ReachabilityObservations> = {
  name: 'reachability',
  version: '1.0.0',
  schema,
  async collect(domain, ctx) {
    const { net, signal } = ctx;
    const host = normaliseName(domain);
    const needsApex = ctx.needs('reachability.apex');
    // The handshakes alone when nothing else of the apex is needed (a Quick Scan); otherwise the apex's own.
    const [apex, www, handshakes] = await Promise.all([
      needsApex ? collectHost(net, host, signal) : null,
      ctx.needs('reachability.www') ? collectHost(net, `www.${host}`, signal) : null,
      !needsApex && ctx.needs('reachability.apex_tls') ? collectHandshakes(net, host, signal) : null,
    ]);
    const out: ReachabilityObservations = {};
    if (apex) out.apex = apex;
    if (www) out.www = www;
    if (handshakes) out.apex_tls = handshakes;
    else if (apex && ctx.needs('reachability.apex_tls')) out.apex_tls = handshakesOf(apex);
    return out;
  },
};
