// /.well-known/http-message-signatures-directory (draft-meunier-http-message-signatures-directory): the agent
// key that signs the service's probe requests, as a JWK set, and the response signed with that key (tag
// "http-message-signatures-directory", keyid the key's JWK thumbprint, covering the request's @authority), so
// a site can check that the directory and the key belong together.
import type { Context } from 'koa';
import { createSigner, httpbis } from 'http-message-signatures';
import type { PublicJwk, SigningKey } from '../../signing/keys.ts';

export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';
const DIRECTORY_TAG = 'http-message-signatures-directory';
/** How long the directory vouches for a key from the moment it is served; verifiers fetch it again after. */
const KEY_VALIDITY_S = 7 * 86_400;
const SIGNATURE_LIFETIME_S = 300;

/** A key as the directory lists it: the public JWK plus the window it is vouched for. */
export type DirectoryJwk = PublicJwk & { nbf: number; exp: number };

export function directoryKeys(key: SigningKey, now: Date): { keys: DirectoryJwk[] } {
  const { kty, crv, x } = key.publicJwk;
  const nbf = Math.floor(Date.parse(key.createdAt) / 1000);
  return {
    keys: [
      {
        kty,
        crv,
        x,
        kid: key.thumbprint,
        alg: 'EdDSA',
        use: 'sig',
        nbf,
        exp: Math.floor(now.getTime() / 1000) + KEY_VALIDITY_S,
      },
    ],
  };
}

/**
 * Sets the directory's Signature-Input and Signature: its only signature (response-signing.ts adds the
 * Content-Digest and leaves a response that is signed already alone), so single-signature verifiers accept it.
 */
export async function signDirectory(ctx: Context, key: SigningKey, now: Date): Promise<void> {
  const created = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const request = { method: ctx.method, url: `${ctx.protocol}://${ctx.host}${ctx.url}`, headers: { host: ctx.host } };
  // Typed so the signed copy's headers can be read back by name.
  const response: { status: number; headers: Record<string, string | string[]> } = { status: ctx.status, headers: {} };
  const signed = await httpbis.signMessage(
    {
      key: createSigner(key.privateKeyObject, 'ed25519', key.thumbprint),
      name: 'binding0',
      fields: ['@authority;req'],
      params: ['created', 'expires', 'keyid', 'alg', 'tag'],
      paramValues: {
        created,
        expires: new Date(created.getTime() + SIGNATURE_LIFETIME_S * 1000),
        keyid: key.thumbprint,
        alg: 'ed25519',
        tag: DIRECTORY_TAG,
      },
    },
    response,
    request,
  );
  ctx.set('Signature-Input', String(signed.headers['Signature-Input']));
  ctx.set('Signature', String(signed.headers.Signature));
}
