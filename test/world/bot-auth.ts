// Web Bot Auth for `web_bot_auth` sites. A real site fetches the key directory named by Signature-Agent; the
// world has no such service running, so it trusts the agent keys the test hands to startWorld.
import type { IncomingMessage } from 'node:http';
import { calculateJwkThumbprint } from 'jose';
import { verifyWebBotAuth, type PublicKeyInput } from '../../src/net/web-bot-auth.ts';

/** Whether a request, as received at `url`, carries a valid Web Bot Auth signature from a trusted key. */
export type BotAuthVerifier = (req: IncomingMessage, url: string) => Promise<boolean>;

/** A public agent key as a JWK; only Ed25519 (OKP) keys sign Web Bot Auth requests. */
export interface AgentJwk {
  kty: string;
  crv?: string;
  x?: string;
  kid?: string;
}

/** Keys are found by their RFC 7638 thumbprint (the Web Bot Auth keyid), or by their `kid` when they have one. */
export function botAuthVerifier(trusted: readonly AgentJwk[]): BotAuthVerifier {
  const byKeyid = (async () => {
    const map = new Map<string, PublicKeyInput>();
    for (const jwk of trusted) {
      if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x)
        throw new Error('trustedAgentKeys: only Ed25519 (OKP) JWKs');
      const key = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: jwk.x };
      map.set(await calculateJwkThumbprint(key), key);
      if (jwk.kid) map.set(jwk.kid, key);
    }
    return map;
  })();
  return async (req, url) => {
    const keys = await byKeyid;
    const verdict = await verifyWebBotAuth(
      { method: req.method ?? 'GET', url, headers: req.headers },
      (keyid) => keys.get(keyid) ?? null,
    );
    return verdict.verified;
  };
}
