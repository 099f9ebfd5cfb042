// Signs a key directory response as draft-meunier-http-message-signatures-directory asks: one signature per
// key (labels binding0, binding1...), tag http-message-signatures-directory, keyid the key's RFC 7638
// thumbprint, covering "@authority";req so a copy served from another origin does not verify.
import { directoryResponseHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import type { PrivateJwk } from './site-config.ts';

/** How long a directory signature stays valid; a cache may keep the response that long. */
const SIGNATURE_LIFETIME_S = 300;

export interface DirectoryRequest {
  method: string;
  /** The URL as the client asked for it (its authority is what the signature covers). */
  url: string;
  headers: Record<string, string>;
}

export type DirectorySigner = (
  request: DirectoryRequest,
  status: number,
  now?: Date,
) => Promise<{ signature: string; 'signature-input': string }>;

export function directorySigner(keys: readonly PrivateJwk[]): DirectorySigner {
  const signers = Promise.all(keys.map((jwk) => signerFromJWK(jwk)));
  return async (request, status, now = new Date()) => {
    const created = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const signed = await directoryResponseHeaders({ request, response: { status, headers: {} } }, await signers, {
      created,
      expires: new Date(created.getTime() + SIGNATURE_LIFETIME_S * 1000),
    });
    return { signature: signed.Signature, 'signature-input': signed['Signature-Input'] };
  };
}
