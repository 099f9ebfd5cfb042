// The tls probe: handshakes with the domain on the HTTPS port, each facet only when a rule of the run reads it.
import schema from '../../schemas/observations/tls.json' with { type: 'json' };
import type { ProbeProvider } from '../../src/engine/types.ts';
import type { TlsObservations } from '../../src/lib/schema-types/observations/tls.ts';
import { collectCiphers } from './ciphers.ts';
import { collectDefault } from './default-handshake.ts';
import { collectFeatures } from './features.ts';
import { collectVersions } from './versions.ts';
import { failFastAfterSilence } from './silent-hosts.ts';
import { collectWww } from './www.ts';

export const provider: ProbeProvider<TlsObservations> = {
  name: 'tls',
  version: '1.0.0',
  schema,
  async collect(domain, ctx) {
    const { signal } = ctx;
    const net = failFastAfterSilence(ctx.net);
    const want = (facet: string): boolean => ctx.needs(`tls.${facet}`);
    const wantDefault = want('negotiated') || want('certificate') || want('ocsp');
    const defaultRun = wantDefault ? collectDefault(net, domain, signal, want('ocsp')) : null;
    // The default handshake (TLS 1.2 or later) is the positive control when only legacy versions are tried. A
    // failed default handshake proves nothing modern; its failure is reported once, through `defaults`, and the
    // control is settled either way, so a facet that never reads it leaves no rejection behind.
    const modern = defaultRun?.then(
      (d) => ['TLSv1.2', 'TLSv1.3'].includes(d.negotiated.protocol ?? ''),
      () => false,
    );
    const [defaults, versions, ciphers, features, www] = await Promise.all([
      defaultRun,
      want('versions') ? collectVersions(net, domain, signal, (key) => want(`versions.${key}`), modern) : null,
      want('ciphers') ? collectCiphers(net, domain, signal) : null,
      want('features') ? collectFeatures(net, domain, signal) : null,
      want('www') ? collectWww(net, domain, signal) : null,
    ]);
    const out: TlsObservations = {};
    if (defaults && want('negotiated')) out.negotiated = defaults.negotiated;
    if (defaults && want('certificate')) out.certificate = defaults.certificate;
    if (defaults && want('ocsp')) out.ocsp = defaults.ocsp;
    if (versions) out.versions = versions;
    if (ciphers) out.ciphers = ciphers;
    if (features) out.features = features;
    if (www) out.www = www;
    return out;
  },
};
