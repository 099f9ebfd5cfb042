// The reachability probe: every published address of the domain and of www, each probed on its own over IPv4
// and IPv6, so no verdict rests on the one address a resolver happened to return first.
import schema from '../../schemas/observations/reachability.json' with { type: 'json' };
import type { ProbeProvider } from '../../src/engine/types.ts';
import type { ReachabilityObservations } from '../../src/lib/schema-types/observations/reachability.ts';
import { collectFacets, type FacetCollectors } from '../shared/facets.ts';
import { collectHandshakes, collectHost } from './collect-host.ts';
import { normaliseName } from '../../src/lib/domain-name.ts';

export const provider: ProbeProvider<ReachabilityObservations> = {
  name: 'reachability',
  version: '1.0.0',
  schema,
  async collect(domain, ctx) {
    const { net, signal } = ctx;
    const host = normaliseName(domain);
    // The apex's handshakes are those of the connections its requests use: collected beside the apex, they cost
    // no connection of their own.
    const collectors: FacetCollectors<ReachabilityObservations> = {
      apex: () => collectHost(net, host, signal),
      www: () => collectHost(net, `www.${host}`, signal),
      apex_tls: () => collectHandshakes(net, host, signal),
    };
    return collectFacets(collectors, (facet) => ctx.needs(`reachability.${facet}`));
  },
};
