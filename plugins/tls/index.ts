// The tls probe: handshakes with the domain on the HTTPS port, each facet only when a rule of the run reads it.
import schema from '../../schemas/observations/tls.json' with { type: 'json' };
import type { ProbeProvider } from '../../src/engine/types.ts';
import type { Net } from '../../src/net/types.ts';
import type { TlsObservations } from '../../src/lib/schema-types/observations/tls.ts';
import { computed } from '../shared/computed.ts';
import { collectFacets, type FacetCollectors } from '../shared/facets.ts';
import { collectCiphers } from './collect-ciphers.ts';
import { collectDefaultHandshake } from './collect-default-handshake.ts';
import { collectFeatures } from './collect-features.ts';
import { collectVersions } from './collect-versions.ts';
import { failFastAfterSilence } from './silent-hosts.ts';
import { collectWww } from './collect-www.ts';

/** One run of the probe: what its shared handshake is derived from. */
interface TlsRun {
  net: Net;
  domain: string;
  signal: AbortSignal;
  /** Whether the default handshake asks for a stapled OCSP response. */
  ocsp: boolean;
}

/** The default handshake (TLS 1.2 or later): the negotiated, certificate and ocsp facets read it. */
const defaultHandshake = computed((run: TlsRun) => collectDefaultHandshake(run.net, run.domain, run.signal, run.ocsp));

export const provider: ProbeProvider<TlsObservations> = {
  name: 'tls',
  version: '1.0.0',
  schema,
  async collect(domain, ctx) {
    const { signal } = ctx;
    const net = failFastAfterSilence(ctx.net);
    const want = (facet: string): boolean => ctx.needs(`tls.${facet}`);
    const run: TlsRun = { net, domain, signal, ocsp: want('ocsp') };
    // The default handshake is the positive control when only legacy versions are tried, when a rule reads it
    // anyway. A failed default handshake proves nothing modern; its failure is reported once, by the facets that
    // read it, and the control is settled either way, so the versions facet leaves no rejection behind.
    const modern =
      want('negotiated') || want('certificate') || want('ocsp')
        ? defaultHandshake(run).then(
            (d) => ['TLSv1.2', 'TLSv1.3'].includes(d.negotiated.protocol ?? ''),
            () => false,
          )
        : undefined;
    const collectors: FacetCollectors<TlsObservations> = {
      negotiated: async () => (await defaultHandshake(run)).negotiated,
      certificate: async () => (await defaultHandshake(run)).certificate,
      ocsp: async () => (await defaultHandshake(run)).ocsp,
      versions: () => collectVersions(net, domain, signal, (key) => want(`versions.${key}`), modern),
      ciphers: () => collectCiphers(net, domain, signal),
      features: () => collectFeatures(net, domain, signal),
      www: () => collectWww(net, domain, signal),
    };
    return collectFacets(collectors, want);
  },
};
