// Signs an A2A agent card as the A2A specification (section 8.4) describes, when the site serves it: a JWS whose
// payload is the RFC 8785 form of the card without `signatures`, detached, in `signatures[]` as {protected,
// signature}, with alg, typ JOSE, kid and the jku the site names. Signing at serving time lets a site built on
// another sign the card with its own domain in it. The `canonicalize` package, not the service's own canonical
// JSON, makes the payload, so the probe's verifier is checked against an independent implementation.
import canonicalize from 'canonicalize';
import { FlattenedSign, calculateJwkThumbprint, importJWK } from 'jose';
import type { PrivateJwk } from './site-config.ts';

export interface CardSigning {
  key: PrivateJwk;
  jku: string;
  /** Top-level members set after signing: a card altered after it was signed. */
  altered_after_signing?: Record<string, unknown> | undefined;
}

/** Signs a served card; a body that is not a JSON object is served as it is (a site may serve a broken card). */
export type CardSigner = (body: Buffer) => Promise<Buffer>;

function cardOf(body: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function cardSigner(signing: CardSigning): CardSigner {
  const { kid, ...jwk } = signing.key;
  const key = importJWK(jwk, 'EdDSA');
  const keyId = kid === undefined ? calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }) : kid;
  return async (body) => {
    const card = cardOf(body);
    if (card === null) return body;
    delete card.signatures;
    const payload = new TextEncoder().encode(canonicalize(card));
    const jws = await new FlattenedSign(payload)
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JOSE', kid: await keyId, jku: signing.jku })
      .sign(await key);
    const served = {
      ...card,
      ...signing.altered_after_signing,
      signatures: [{ protected: jws.protected, signature: jws.signature }],
    };
    return Buffer.from(JSON.stringify(served, null, 2) + '\n');
  };
}
