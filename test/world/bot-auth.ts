// Web Bot Auth for `web_bot_auth` sites. A real site fetches the key directory named by Signature-Agent; the
// world has no such service running, so it trusts the agent keys the test hands to startWorld, wherever the
// header says the directory is, and checks the rest as this service checks its own callers.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import type { DirectoryKey } from '../../src/signing/agent-directory.ts';
import { verifyCallerSignature } from '../../src/signing/caller-signature.ts';
import type { SiteRequest } from './site-server.ts';

/** Whether a request, as received at `url`, carries a valid Web Bot Auth signature from a trusted key. */
export type BotAuthVerifier = (req: SiteRequest, url: string) => Promise<boolean>;

/** A public agent key as a JWK; only Ed25519 (OKP) keys sign Web Bot Auth requests. */
export interface AgentJwk {
  kty: string;
  crv?: string;
  x?: string;
  kid?: string;
}

/** Keys are found by their RFC 7638 thumbprint (the Web Bot Auth keyid), or by their `kid` when they have one. */
export function botAuthVerifier(trusted: readonly AgentJwk[]): BotAuthVerifier {
  const keys = (async () => {
    const map = new Map<string, DirectoryKey>();
    const add = (keyid: string, publicKey: KeyObject) => map.set(keyid, { keyid, publicKey, nbf: null, exp: null });
    for (const jwk of trusted) {
      if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x)
        throw new Error('trustedAgentKeys: only Ed25519 (OKP) JWKs');
      const key = { kty: 'OKP' as const, crv: 'Ed25519' as const, x: jwk.x };
      const publicKey = createPublicKey({ key, format: 'jwk' });
      add(await calculateJwkThumbprint(key), publicKey);
      if (jwk.kid) add(jwk.kid, publicKey);
    }
    return map;
  })();
  return async (req, url) => {
    const verdict = await verifyCallerSignature(
      { method: req.method ?? 'GET', url, headers: req.headers },
      { directory: async (at) => ({ ok: true, directory: { origin: at.origin, keys: await keys } }) },
    );
    return verdict.status === 'verified';
  };
}
