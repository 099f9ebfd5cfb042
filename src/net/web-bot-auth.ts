// Web Bot Auth (draft-meunier-web-bot-auth-architecture): every outgoing probe request is signed with RFC 9421
// HTTP Message Signatures so a site can tell this service's requests from an impostor's. The signature covers
// @authority and the Signature-Agent header, which points at the service's key directory.
import { randomBytes, type KeyObject } from 'node:crypto';
import { httpbis, createSigner } from 'http-message-signatures';

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

/** The agent's Ed25519 key, as the signing module loads it: keyid is its RFC 7638 thumbprint. */
export interface AgentKey {
  privateKeyObject: KeyObject;
  thumbprint: string;
}

/** The headers to add to one request, signed with the agent key; `now` is the signing time. */
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
