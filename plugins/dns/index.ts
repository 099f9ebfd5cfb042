// The DNS probe: what the configured recursive resolver says about the domain, gathered facet by facet
// (each only when a rule of the run reads it) with every question asked once and in parallel.
//
// Status: NXDOMAIN, SERVFAIL and REFUSED are facts about the domain and land in the facets' `rcode`. A
// resolver that does not answer about the domain at all is a failure of the run: the timeout propagates
// and the engine records the probe as `timeout` (see query.ts for names the domain only points to).
import schema from '../../schemas/observations/dns.json' with { type: 'json' };
import type { ProbeProvider } from '../../src/engine/types.ts';
import { collectFacets, type FacetCollectors } from '../shared/facets.ts';
import { hostAddresses } from './collect-addresses.ts';
import { collectCaa } from './collect-caa.ts';
import { collectDmarc } from './collect-dmarc.ts';
import { collectDnssec } from './collect-dnssec.ts';
import { collectHttpsRr } from './collect-https-rr.ts';
import { collectBimi, collectDkim, collectMtaSts, collectTlsRpt } from './collect-mail-policies.ts';
import { collectMx } from './collect-mx.ts';
import { collectSpf, expandSpf } from './collect-spf.ts';
import { collectNs, collectSoa, collectTtl } from './collect-zone.ts';
import type { DnsObservations } from './facts.ts';
import { createQuerier, type Querier } from './query.ts';
import { computed } from '../shared/computed.ts';
import { normaliseName } from '../../src/lib/domain-name.ts';

/** One run of the probe: what the SPF record is derived from. */
interface DnsRun {
  q: Querier;
  name: string;
}

/** The domain's SPF record: its own facet, and what spf_expansion expands. */
const spfRecord = computed((run: DnsRun) => collectSpf(run.q, run.name));

export const provider: ProbeProvider<DnsObservations> = {
  name: 'dns',
  version: '1.0.0',
  schema,
  async collect(domain, ctx) {
    const name = normaliseName(domain);
    const q = createQuerier(ctx.net, ctx.signal);
    const run: DnsRun = { q, name };
    const spf = () => spfRecord(run);
    const collectors: FacetCollectors<DnsObservations> = {
      addresses: async () => {
        const [apex, www] = await Promise.all([
          hostAddresses(q, ctx.net, ctx.signal, name),
          hostAddresses(q, ctx.net, ctx.signal, `www.${name}`),
        ]);
        return { apex, www };
      },
      ns: () => collectNs(q, name, ctx.needs('dns.ns.hosts') || ctx.needs('dns.ns.networks')),
      soa: () => collectSoa(q, name),
      mx: () => collectMx(q, name),
      spf,
      spf_expansion: async () => expandSpf(q, await spf()),
      dmarc: () => collectDmarc(q, name),
      mta_sts: () => collectMtaSts(q, name),
      tls_rpt: () => collectTlsRpt(q, name),
      bimi: () => collectBimi(q, name),
      dkim: () => collectDkim(q, name),
      caa: () => collectCaa(q, name),
      https_rr: () => collectHttpsRr(q, name),
      dnssec: () => collectDnssec(q, name),
      ttl: () => collectTtl(q, name),
    };
    // Each facet's questions are traced under its path, the reason `dvs scan --trace` gives for them.
    return collectFacets(
      collectors,
      (facet) => ctx.needs(`dns.${facet}`),
      (facet, collect) => ctx.net.within(`dns.${facet}`, collect),
    );
  },
};
