// The facets read from the handshake of the scan's HTTPS connection to the domain: what was negotiated, the
// certificate, and the OCSP staple.
import type { Net, TlsHandshake } from '../../src/net/types.ts';
import type { Protocol, TlsObservations } from '../../src/lib/schema-types/observations/tls.ts';
import { chainFacts, type ChainFacts } from './chain.ts';
import { attempt, observed, type Attempt } from './handshake.ts';
import { suiteFacts } from './suite-facts.ts';
import { anchorsFor } from './trust-anchors.ts';

/** The schema's `negotiated` facet (schemas/observations/tls.json). */
export type NegotiatedFacts = NonNullable<TlsObservations['negotiated']>;

export interface CertificateFacet extends ChainFacts {
  reachable: boolean;
  error: string | null;
}

export interface OcspFacts {
  reachable: boolean;
  error: string | null;
  stapled: boolean | null;
  response_bytes: number | null;
}

const PROTOCOLS = ['SSLv3', 'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const satisfies readonly Protocol[];

/** Node's name of the negotiated version; null for one the schema does not name (Node's "unknown"). */
const protocolOf = (name: string | null): Protocol => PROTOCOLS.find((p) => p === name) ?? null;

/** What the facets' one extra handshake offers, as the scan's HTTPS connections do (src/net). */
const MODERN_CLIENT = { ALPNProtocols: ['h2', 'http/1.1'], requestOCSP: true } as const;

function negotiated(h: TlsHandshake): NegotiatedFacts {
  const protocol = protocolOf(h.protocol);
  const eph = h.ephemeralKey;
  const facts = suiteFacts(h.cipher.standardName);
  const tls13 = protocol === 'TLSv1.3';
  return {
    reachable: true,
    error: null,
    address: h.address,
    protocol,
    cipher: h.cipher.name,
    cipher_iana: h.cipher.standardName,
    key_exchange: tls13 ? (eph?.type === 'DH' ? 'dhe' : 'ecdhe') : facts.key_exchange,
    ephemeral_group: eph?.name ?? null,
    ephemeral_bits: eph?.size ?? null,
    forward_secret: tls13 || facts.forward_secret,
    aead: facts.aead,
    alpn: h.alpn || null,
  };
}

function unreached(a: Exclude<Attempt<unknown>, { outcome: 'accepted' }>): { reachable: boolean; error: string } {
  return { reachable: a.outcome === 'refused', error: a.error };
}

export interface DefaultFacets {
  negotiated: NegotiatedFacts;
  certificate: CertificateFacet;
  ocsp: OcspFacts;
}

/**
 * The handshake of the scan's HTTPS connection to the domain, the one its requests use, gives all three facets; a
 * handshake of the probe's own asks for the staple again when that one had none but the certificate names an OCSP
 * responder (servers often fetch the staple only after the first request).
 */
export async function collectDefaultHandshake(
  net: Net,
  domain: string,
  signal: AbortSignal,
  wantOcsp: boolean,
): Promise<DefaultFacets> {
  const first = await observed(net, domain, signal);
  if (first.outcome !== 'accepted') {
    const base = unreached(first);
    return {
      negotiated: {
        ...base,
        address: null,
        protocol: null,
        cipher: null,
        cipher_iana: null,
        key_exchange: null,
        ephemeral_group: null,
        ephemeral_bits: null,
        forward_secret: null,
        aead: null,
        alpn: null,
      },
      certificate: {
        ...base,
        chain_verified: null,
        authorization_error: null,
        chain_reaches_anchor: null,
        anchor_public: null,
        hostname_match: null,
        leaf: null,
        chain: [],
      },
      ocsp: { ...base, stapled: null, response_bytes: null },
    };
  }
  const certificate = chainFacts(first.value, domain, anchorsFor(net.ca));
  let staple = first.value.ocspResponse;
  if (wantOcsp && !staple && (certificate.leaf?.ocsp_urls.length ?? 0) > 0) {
    const second = await attempt(net, domain, { ...MODERN_CLIENT, signal }, (conn) => conn.ocspResponse);
    if (second.outcome === 'accepted') staple = second.value;
  }
  return {
    negotiated: negotiated(first.value),
    certificate: { reachable: true, error: null, ...certificate },
    ocsp: { reachable: true, error: null, stapled: staple !== null, response_bytes: staple?.length ?? null },
  };
}
