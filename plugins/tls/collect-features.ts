// ServerHello extensions Node does not expose, read from the answer to a mainstream hand-built TLS 1.2 hello.
import type { Net } from '../../src/net/types.ts';
import type { Protocol, TlsObservations } from '../../src/lib/schema-types/observations/tls.ts';
import { buildClientHello, EXTENSIONS, SUITE_CLASSES, TLS12 } from './client-hello.ts';
import { rawHello, type RawResult } from './raw-exchange.ts';

/** The schema's `features` facet (schemas/observations/tls.json). */
export type FeatureFacts = NonNullable<TlsObservations['features']>;

const VERSION_NAMES: Record<number, NonNullable<Protocol>> = {
  0x0300: 'SSLv3',
  0x0301: 'TLSv1',
  0x0302: 'TLSv1.1',
  0x0303: 'TLSv1.2',
};

export function featureFacts(result: RawResult): FeatureFacts {
  const none = { hello_version: null, secure_renegotiation: null, extended_master_secret: null, compression: null };
  if ('error' in result) return { reachable: false, error: result.error, ...none };
  const reply = result.reply;
  if (reply.kind === 'alert') return { reachable: true, error: `alert_${reply.description}`, ...none };
  if (reply.kind !== 'server_hello') return { reachable: true, error: reply.kind, ...none };
  return {
    reachable: true,
    error: null,
    hello_version: VERSION_NAMES[reply.version] ?? null,
    secure_renegotiation: reply.extensions.includes(EXTENSIONS.renegotiation_info),
    extended_master_secret: reply.extensions.includes(EXTENSIONS.extended_master_secret),
    compression: reply.compression === 0 ? 'null' : reply.compression === 1 ? 'deflate' : 'other',
  };
}

export async function collectFeatures(net: Net, domain: string, signal: AbortSignal): Promise<FeatureFacts> {
  const hello = buildClientHello({
    version: TLS12,
    suites: SUITE_CLASSES.modern,
    servername: domain,
    offerCompression: true,
    seed: `features:${domain}`,
  });
  return featureFacts(await rawHello(net, domain, hello, signal));
}
