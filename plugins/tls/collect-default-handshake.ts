// The facets read from one modern-client handshake: what was negotiated, the certificate, and the OCSP staple.
import type { Net, TlsConnection } from '../../src/net/types.ts';
import type { Protocol, TlsObservations } from '../../src/lib/schema-types/observations/tls.ts';
import { chainFacts, type ChainFacts } from './chain.ts';
import { attempt, type Attempt } from './handshake.ts';
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

interface Seen {
  negotiated: NegotiatedFacts;
  certificate: ChainFacts;
  staple: Buffer | null;
}

const PROTOCOLS = ['SSLv3', 'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const satisfies readonly Protocol[];

/** Node's name of the negotiated version; null for one the schema does not name (Node's "unknown"). */
const protocolOf = (name: string | null): Protocol => PROTOCOLS.find((p) => p === name) ?? null;

const MODERN_CLIENT = { ALPNProtocols: ['h2', 'http/1.1'], requestOCSP: true } as const;

function negotiated(conn: TlsConnection): NegotiatedFacts {
  const socket = conn.socket;
  const protocol = protocolOf(socket.getProtocol());
  const cipher = socket.getCipher();
  const eph = socket.getEphemeralKeyInfo() as { type?: string; name?: string; size?: number } | null;
  const facts = suiteFacts(cipher.standardName);
  const tls13 = protocol === 'TLSv1.3';
  return {
    reachable: true,
    error: null,
    address: conn.address,
    protocol,
    cipher: cipher.name,
    cipher_iana: cipher.standardName,
    key_exchange: tls13 ? (eph?.type === 'DH' ? 'dhe' : 'ecdhe') : facts.key_exchange,
    ephemeral_group: eph?.name ?? null,
    ephemeral_bits: eph?.size ?? null,
    forward_secret: tls13 || facts.forward_secret,
    aead: facts.aead,
    alpn: socket.alpnProtocol || null,
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
 * One handshake gives all three facets; a second asks for the staple again when the first had none but the
 * certificate names an OCSP responder (servers often fetch the staple only after the first request).
 */
export async function collectDefaultHandshake(
  net: Net,
  domain: string,
  signal: AbortSignal,
  wantOcsp: boolean,
): Promise<DefaultFacets> {
  const anchors = anchorsFor(net.ca);
  const read = (conn: TlsConnection): Seen => ({
    negotiated: negotiated(conn),
    certificate: chainFacts(conn, domain, anchors),
    staple: conn.ocspResponse,
  });
  const first = await attempt(net, domain, { ...MODERN_CLIENT, signal }, read);
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
  let staple = first.value.staple;
  if (wantOcsp && !staple && (first.value.certificate.leaf?.ocsp_urls.length ?? 0) > 0) {
    const second = await attempt(net, domain, { ...MODERN_CLIENT, signal }, (conn) => conn.ocspResponse);
    if (second.outcome === 'accepted') staple = second.value;
  }
  return {
    negotiated: first.value.negotiated,
    certificate: { reachable: true, error: null, ...first.value.certificate },
    ocsp: { reachable: true, error: null, stapled: staple !== null, response_bytes: staple?.length ?? null },
  };
}
