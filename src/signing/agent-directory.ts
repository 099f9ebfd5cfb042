// A caller's key directory (draft-meunier-http-message-signatures-directory) as fetched: a JWK set served with
// one RFC 9421 signature per key (tag "http-message-signatures-directory", keyid the key's RFC 7638 thumbprint,
// covering "@authority";req). A listed key counts only when the response carries its valid signature: that
// proves whoever serves the directory at this origin holds the key, so a directory cannot list someone else's.
// The keys and signatures are read by src/lib/signature-directory.ts, which the agents probe shares.
import { listedKeys, signedWith, type DirectoryKey, type DirectoryResponse } from '../lib/signature-directory.ts';
import { parseStrictJson } from '../lib/strict-json.ts';
import { SPACE_OR_TAB, trimEndOf, trimOf } from '../lib/trim.ts';

export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
const MEDIA_TYPES = ['application/http-message-signatures-directory+json', 'application/json'];
export type { DirectoryKey, DirectoryResponse };

export interface AgentDirectory {
  /** The directory's origin: the identity a verified caller is recorded under. */
  origin: string;
  keys: Map<string, DirectoryKey>;
}

export type DirectoryResult = { ok: true; directory: AgentDirectory } | { ok: false; reason: string };

/**
 * The directory URL a Signature-Agent value names, or why it names none: an https origin on the default port, at
 * the well-known path (named, or implied by the origin alone). The identity a directory earns is its whole origin,
 * so only the origin's own well-known resource may speak for it, not any file someone could place on the host;
 * and another port would let callers have the service probe any port of any public host (issue 31 item 9).
 */
export function directoryUrl(value: string): URL | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `Signature-Agent ${value} is not an https URL`;
  }
  if (url.protocol !== 'https:') return `Signature-Agent ${value} is not an https URL`;
  if (url.username !== '' || url.password !== '') return `Signature-Agent ${value} carries credentials`;
  if (url.port !== '') return `Signature-Agent ${value} names a port; key directories are served on 443`;
  if (url.search !== '' || url.hash !== '' || (url.pathname !== '/' && url.pathname !== DIRECTORY_PATH))
    return `Signature-Agent ${value} is not an origin or its ${DIRECTORY_PATH}`;
  // One origin, one identity: "host." is the same host as "host" (issue 31 item 6).
  url.hostname = trimEndOf(url.hostname, '.');
  url.pathname = DIRECTORY_PATH;
  return url;
}

/** Checks a fetched directory: status, media type, strict JSON, and which listed keys signed it. */
export async function verifyDirectory(response: DirectoryResponse): Promise<DirectoryResult> {
  const origin = new URL(response.url).origin;
  if (response.status !== 200) return { ok: false, reason: `the directory answered ${response.status}` };
  if (response.truncated) return { ok: false, reason: 'the directory is larger than a key directory can be' };
  const type = trimOf((response.headers['content-type'] ?? '').split(';')[0]!, SPACE_OR_TAB).toLowerCase();
  if (!MEDIA_TYPES.includes(type)) return { ok: false, reason: `the directory is served as "${type}"` };
  let document: unknown;
  try {
    document = parseStrictJson(response.body.toString('utf8'));
  } catch (err) {
    return { ok: false, reason: `the directory is not JSON: ${(err as Error).message}` };
  }
  const listed = await listedKeys(document);
  if (typeof listed === 'string') return { ok: false, reason: `the directory is malformed: ${listed}` };
  const keys = new Map<string, DirectoryKey>();
  for (const key of listed.values()) if (await signedWith(response, key)) keys.set(key.keyid, key);
  if (keys.size === 0) return { ok: false, reason: 'the directory carries no valid signature by a key it lists' };
  return { ok: true, directory: { origin, keys } };
}
