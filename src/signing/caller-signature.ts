// Who signed an incoming request, per Web Bot Auth (draft-meunier-web-bot-auth-architecture): an RFC 9421
// signature tagged "web-bot-auth", keyid the JWK thumbprint of a key in the directory the Signature-Agent header
// names, covering @authority and signature-agent, inside a created/expires window. Anything short of that is
// `invalid` with the reason, and the caller is served as unsigned: an identity is a bonus, never a requirement.
import { createVerifier, httpbis, type SignatureParameters } from 'http-message-signatures';
import { parseDictionary, parseItem, serializeDictionary, type Dictionary, type InnerList } from 'structured-headers';
import { directoryUrl, type DirectoryResult } from './agent-directory.ts';

export const WEB_BOT_AUTH_TAG = 'web-bot-auth';
/**
 * Most signatures one request may carry (issue 31 item 5). Web Bot Auth needs one; room is left for a few a proxy
 * or another scheme adds. Only one is ever verified, so this bounds the parsing, not the cryptography.
 */
export const MAX_SIGNATURES = 4;
/** An Ed25519 signature's length (RFC 8032). */
const ED25519_SIGNATURE_BYTES = 64;
/** Clock skew allowed between the caller and this service (s). */
export const SIGNATURE_SKEW_S = 60;
/** Oldest `created` accepted, whatever `expires` says (s): a captured signature cannot be replayed for long. */
export const SIGNATURE_MAX_AGE_S = 300;

export type CallerVerdict =
  | { status: 'unsigned' }
  | { status: 'verified'; agent: string; keyid: string }
  | { status: 'invalid'; agent: string | null; reason: string };

export interface SignedRequest {
  method: string;
  /** The URL as the caller addressed it (its authority is what @authority covers). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface CallerSignatureOptions {
  /** The verified directory at a URL (cached; it may answer that the directory is not available yet). */
  directory(url: URL): Promise<DirectoryResult>;
  /** Unix milliseconds; the clock by default. */
  now?: () => number;
}

interface Labelled {
  label: string;
  components: string[];
  params: Map<string, unknown>;
  /** The member as parsed: verified alone, so what is verified is exactly what was checked. */
  member: InnerList;
}

const invalid = (reason: string, agent: string | null = null): CallerVerdict => ({ status: 'invalid', agent, reason });

function lowerCased(headers: SignedRequest['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);

function dictionaryOf(field: string, value: string): Dictionary | string {
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(value);
  } catch (err) {
    return `${field} is not a structured dictionary: ${(err as Error).message}`;
  }
  if (dictionary.size > MAX_SIGNATURES) return `${field} has ${dictionary.size} members; at most ${MAX_SIGNATURES}`;
  return dictionary;
}

/** The first signature of the Signature-Input dictionary tagged web-bot-auth; null when there is none. */
function webBotAuthSignature(input: string): Labelled | null | string {
  const dictionary = dictionaryOf('Signature-Input', input);
  if (typeof dictionary === 'string') return dictionary;
  for (const [label, member] of dictionary) {
    const [items, params] = member as InnerList;
    if (!Array.isArray(items) || params.get('tag') !== WEB_BOT_AUTH_TAG) continue;
    return { label, components: items.map(([name]) => String(name)), params, member: member as InnerList };
  }
  return null;
}

/** The label's Signature member, when it can be an Ed25519 signature; else why not. */
function signatureBytes(header: string | undefined, label: string): ArrayBuffer | string {
  if (header === undefined) return 'no Signature header';
  const dictionary = dictionaryOf('Signature', header);
  if (typeof dictionary === 'string') return dictionary;
  const value: unknown = (dictionary.get(label) as InnerList | undefined)?.[0];
  if (!(value instanceof ArrayBuffer)) return `Signature has no byte sequence for ${label}`;
  if (value.byteLength !== ED25519_SIGNATURE_BYTES) return `the signature is not ${ED25519_SIGNATURE_BYTES} bytes`;
  return value;
}

/** The directory URL of the Signature-Agent header: a string, or a dictionary member under the signature's label. */
function agentUrl(header: string, label: string): URL | string {
  let value: unknown;
  try {
    value = parseItem(header)[0];
  } catch {
    try {
      const dictionary = parseDictionary(header);
      const member = dictionary.get(label) ?? (dictionary.size === 1 ? [...dictionary.values()][0] : undefined);
      value = member?.[0];
    } catch {
      return 'Signature-Agent is neither a structured string nor a dictionary';
    }
  }
  if (typeof value !== 'string') return `Signature-Agent names no directory for signature ${label}`;
  return directoryUrl(value);
}

/** The created/expires window against the clock, with the skew allowed. */
function windowProblem(params: Map<string, unknown>, nowS: number): string | null {
  const created = params.get('created');
  const expires = params.get('expires');
  if (typeof created !== 'number' || typeof expires !== 'number') return 'created and expires are required';
  if (expires <= created) return 'expires is not after created';
  if (created > nowS + SIGNATURE_SKEW_S) return 'created is in the future';
  if (expires < nowS - SIGNATURE_SKEW_S) return 'the signature has expired';
  if (created < nowS - SIGNATURE_MAX_AGE_S - SIGNATURE_SKEW_S)
    return `created is more than ${SIGNATURE_MAX_AGE_S} s old (a replayed signature)`;
  return null;
}

/** The request's Web Bot Auth verdict; the only I/O is the directory lookup, and an unsigned request does none. */
export async function verifyCallerSignature(
  request: SignedRequest,
  opts: CallerSignatureOptions,
): Promise<CallerVerdict> {
  const headers = lowerCased(request.headers);
  const input = joined(headers['signature-input']);
  if (input === undefined) return { status: 'unsigned' };
  const signature = webBotAuthSignature(input);
  if (signature === null) return { status: 'unsigned' };
  if (typeof signature === 'string') return invalid(signature);
  const { label, components, params } = signature;
  const agentHeader = joined(headers['signature-agent']);
  if (agentHeader === undefined) return invalid('no Signature-Agent header names the key directory');
  const url = agentUrl(agentHeader, label);
  if (typeof url === 'string') return invalid(url);
  const agent = url.origin;
  for (const required of ['@authority', 'signature-agent'])
    if (!components.includes(required)) return invalid(`the signature does not cover ${required}`, agent);
  const keyid = params.get('keyid');
  if (typeof keyid !== 'string') return invalid('the signature has no keyid', agent);
  const alg = params.get('alg');
  if (alg !== undefined && alg !== 'ed25519') return invalid(`alg ${JSON.stringify(alg)} is not ed25519`, agent);
  const nowS = Math.floor((opts.now ?? Date.now)() / 1000);
  const window = windowProblem(params, nowS);
  if (window) return invalid(window, agent);
  // Everything that can be refused without the directory is refused before it is fetched.
  const bytes = signatureBytes(joined(headers['signature']), label);
  if (typeof bytes === 'string') return invalid(bytes, agent);

  const found = await opts.directory(url);
  if (!found.ok) return invalid(`key directory ${url.href}: ${found.reason}`, agent);
  const key = found.directory.keys.get(keyid);
  if (!key) return invalid(`keyid ${keyid} is not a key the directory lists and signed with`, agent);
  if (key.nbf !== null && nowS < key.nbf - SIGNATURE_SKEW_S)
    return invalid(`key ${keyid} is not valid yet (nbf)`, agent);
  if (key.exp !== null && nowS > key.exp + SIGNATURE_SKEW_S) return invalid(`key ${keyid} has expired (exp)`, agent);

  const lookup = async (p: SignatureParameters) =>
    p.tag === WEB_BOT_AUTH_TAG && p.keyid === keyid
      ? { id: keyid, algs: ['ed25519' as const], verify: createVerifier(key.publicKey, 'ed25519') }
      : null;
  // Exactly the signature whose window was checked is verified: the library verifies every member its lookup
  // answers for, and a fresh member beside a captured old one under the same keyid let the old one through.
  const only = {
    ...headers,
    'signature-input': serializeDictionary(new Map([[label, signature.member]])),
    signature: serializeDictionary(new Map([[label, [bytes, new Map()]]])),
  };
  try {
    const verified = await httpbis.verifyMessage(
      {
        keyLookup: lookup,
        requiredParams: ['created', 'expires', 'keyid', 'tag'],
        requiredFields: ['@authority', 'signature-agent'],
        tolerance: SIGNATURE_SKEW_S,
      },
      { method: request.method, url: request.url, headers: only },
    );
    if (verified === true) return { status: 'verified', agent, keyid };
    return invalid('the signature does not verify', agent);
  } catch (err) {
    return invalid(`the signature does not verify: ${(err as Error).message}`, agent);
  }
}
