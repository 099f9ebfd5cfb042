// The identity facet: the site's key set and its HTTP message signatures directory (Web Bot Auth).
import { keysThatSigned } from '../../src/lib/signature-directory.ts';
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import { described, json, JWKS_ACCEPT, type JsonDocument } from './discovery-document.ts';
import { inspectJwks } from './inspect-jwks.ts';

/**
 * The listed keys whose directory signature the answer carries and that verifies now, by the service's own
 * verifier of callers' directories; null when the answer is unsigned or its body is not a key set it can read.
 */
async function directorySigners(directory: JsonDocument): Promise<string[] | null> {
  const exchange = directory.exchange;
  if (!exchange || !directory.facts.json_parsed) return null;
  if (exchange.headers.signature === undefined || exchange.headers['signature-input'] === undefined) return null;
  // The signature covers the authority the request was sent to: the URL as requested, not a redirect target.
  const url = exchange.chain[0]?.url ?? exchange.url;
  const signers = await keysThatSigned({ ...exchange, url }, directory.json);
  return typeof signers === 'string' ? null : signers;
}

export async function collectIdentity(f: DocumentFetcher, observedAt: string) {
  const [jwks, directory] = await Promise.all([
    json(f, '/.well-known/jwks.json', JWKS_ACCEPT),
    json(
      f,
      '/.well-known/http-message-signatures-directory',
      'application/http-message-signatures-directory+json, application/json;q=0.9',
    ),
  ]);
  const headers = directory.exchange?.headers ?? {};
  return {
    jwks: described(jwks, await inspectJwks(jwks.json, observedAt)),
    wba_directory: described(directory, {
      signature: headers.signature ?? null,
      signature_input: headers['signature-input'] ?? null,
      signature_verified_keyids: await directorySigners(directory),
      cache_control: headers['cache-control'] ?? null,
      ...(await inspectJwks(directory.json, observedAt)),
    }),
  };
}
