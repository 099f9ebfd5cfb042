// Web Bot Auth (draft-meunier-web-bot-auth-architecture): every outgoing probe request is signed with RFC 9421
// HTTP Message Signatures so a site can tell this service's requests from an impostor's. The signature covers
// @authority and the Signature-Agent header, which points at the service's key directory.
import { createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { httpbis, createSigner, createVerifier, type SignatureParameters } from 'http-message-signatures';

const WEB_BOT_AUTH_TAG = 'web-bot-auth';
const SIGNATURE_LIFETIME_S = 60;
const NONCE_BYTES = 64;

export interface SignableRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** Adds the Signature-Agent, Signature-Input and Signature headers for one request. */
export type RequestSigner = (request: SignableRequest, now?: Date) => Promise<Record<string, string>>;

/** The headers to add to one request, signed with the agent key; `now` is the signing time. */
/** The agent's Ed25519 key, as the signing module loads it: keyid is its RFC 7638 thumbprint. */
export interface AgentKey {
  privateKeyObject: KeyObject;
  thumbprint: string;
}

export function createWebBotAuthSigner(key: AgentKey, signatureAgentUrl: string): RequestSigner {
  const signer = createSigner(key.privateKeyObject, 'ed25519', key.thumbprint);
  const agentHeader = `"${signatureAgentUrl}"`;
  return async (request, now = new Date()) => {
    const created = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const headers = { ...request.headers, 'signature-agent': agentHeader };
    const signed = await httpbis.signMessage(
      {
        key: signer,
        name: 'sig1',
        fields: ['@authority', 'signature-agent'],
        params: ['created', 'expires', 'keyid', 'alg', 'nonce', 'tag'],
        paramValues: {
          created,
          expires: new Date(created.getTime() + SIGNATURE_LIFETIME_S * 1000),
          keyid: key.thumbprint,
          alg: 'ed25519',
          nonce: randomBytes(NONCE_BYTES).toString('base64'),
          tag: WEB_BOT_AUTH_TAG,
        },
      },
      { method: request.method, url: request.url, headers },
    );
    const added = signed.headers as Record<string, string | string[]>;
    return {
      'signature-agent': agentHeader,
      'signature-input': String(added['Signature-Input']),
      signature: String(added['Signature']),
    };
  };
}

/** An Ed25519 public key as a KeyObject or an OKP JWK. */
export type PublicKeyInput = KeyObject | { kty: 'OKP'; crv: 'Ed25519'; x: string };

export type WebBotAuthVerdict =
  { verified: true; keyid: string } | { verified: false; keyid: string | null; reason: string };

/**
 * Checks a request's Web Bot Auth signature: the tag, a keyid the lookup knows, coverage of @authority (and of
 * Signature-Agent when the request carries one), created/expires, and the Ed25519 signature itself.
 * Pure apart from reading the clock: no network, the caller supplies the keys.
 */
export async function verifyWebBotAuth(
  request: { method: string; url: string; headers: Record<string, string | string[] | undefined> },
  keyLookup: (keyid: string) => PublicKeyInput | null | Promise<PublicKeyInput | null>,
): Promise<WebBotAuthVerdict> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers[name.toLowerCase()] = value;
  let keyid: string | null = null;
  let refusal: string | null = null;
  try {
    const result = await httpbis.verifyMessage(
      {
        requiredParams: ['created', 'expires', 'keyid', 'tag'],
        requiredFields: headers['signature-agent'] === undefined ? ['@authority'] : ['@authority', 'signature-agent'],
        keyLookup: async (params: SignatureParameters) => {
          if (params.tag !== WEB_BOT_AUTH_TAG) {
            refusal = `signature tag is ${String(params.tag)}, not ${WEB_BOT_AUTH_TAG}`;
            return null;
          }
          keyid = typeof params.keyid === 'string' ? params.keyid : null;
          const found = keyid === null ? null : await keyLookup(keyid);
          if (found === null) {
            refusal = `unknown keyid ${keyid}`;
            return null;
          }
          const publicKey = 'type' in found ? found : createPublicKey({ key: found, format: 'jwk' });
          return { id: keyid!, algs: ['ed25519'], verify: createVerifier(publicKey, 'ed25519') };
        },
      },
      { method: request.method, url: request.url, headers },
    );
    if (result === true) return { verified: true, keyid: keyid! };
    return {
      verified: false,
      keyid,
      reason: refusal ?? (result === null ? 'no signature' : 'signature does not verify'),
    };
  } catch (err) {
    return { verified: false, keyid, reason: (err as Error).message };
  }
}
