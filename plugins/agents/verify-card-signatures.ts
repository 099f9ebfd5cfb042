// Verifies the signatures of an A2A agent card (A2A specification section 8.4): each `signatures[]` entry is a JWS
// whose payload, detached, is the RFC 8785 form of the card without `signatures`. Keys come only from the key set
// the protected header's `jku` names, and only when it is an https URL on the scanned site or one of its
// subdomains: a key set anywhere else proves nothing about the site, and following it would let a card send the
// scanner to any host. The facts say, per signature, whether it verified and, when not, why.
import { createLocalJWKSet, errors, flattenedVerify, type JSONWebKeySet } from 'jose';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { decodeBase64url } from '../../src/lib/base64url.ts';
import type { AgentCard } from '../../src/lib/schema-types/observations/agents.ts';
import { asObject, asString, isHttpsUrl, urlOnSite } from './json-value.ts';

/** A signature's facts, as schemas/observations/agents.json describes them. */
export type CardSignature = NonNullable<AgentCard['signatures']>[number];

/** Why a signature did not verify. */
export type SignatureFailure = NonNullable<CardSignature['reason']>;

/**
 * Asymmetric JWS algorithms (RFC 7518 section 3, RFC 8037, RFC 9864): the specification's examples name ES256 and
 * RS256. A MAC ("HS256") would need a shared secret a published key set cannot hold, and "none" signs nothing.
 */
export const CARD_SIGNATURE_ALGS = [
  'EdDSA',
  'Ed25519',
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
];

/** Signatures examined per card; a card may carry more, the evidence keeps the first ones. */
export const MAX_CARD_SIGNATURES = 8;
/** Distinct key sets fetched for one probe run's cards. */
export const MAX_KEY_SETS = 2;

/**
 * The key sets a probe run may fetch: at most MAX_KEY_SETS distinct URLs, each fetched once. `fetch` answers the
 * parsed document, or null when none could be read (no answer, not published, not JSON).
 */
export class KeySets {
  private readonly fetched = new Map<string, Promise<unknown>>();

  constructor(
    private readonly fetch: (url: string) => Promise<unknown>,
    private readonly limit = MAX_KEY_SETS,
  ) {}

  /** The key set at a URL, or 'over_limit' once the run has fetched its share of other URLs. */
  get(url: string): Promise<unknown> | 'over_limit' {
    let p = this.fetched.get(url);
    if (p) return p;
    if (this.fetched.size >= this.limit) return 'over_limit';
    p = this.fetch(url);
    this.fetched.set(url, p);
    return p;
  }
}

const failed = (header: Pick<CardSignature, 'alg' | 'kid' | 'jku'>, reason: SignatureFailure): CardSignature => ({
  ...header,
  verified: false,
  reason,
});

/** The protected header's object, or null when it is not base64url of a JSON object. */
function readHeader(encoded: string): Record<string, unknown> | null {
  const bytes = decodeBase64url(encoded);
  if (bytes === null) return null;
  try {
    return asObject(JSON.parse(Buffer.from(bytes).toString('utf8')));
  } catch {
    return null;
  }
}

/** RFC 7518 sections 6.2.2 and 6.3.2: the members that make a JWK a private key. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'];

/**
 * The key set's keys without private members: a set that leaks them is judged by identity.jwks.public_keys_only,
 * and the public half still says whether the card was signed with it.
 */
function publicKeySet(value: unknown): JSONWebKeySet | null {
  const keys = asObject(value)?.keys;
  if (!Array.isArray(keys)) return null;
  const strip = (key: unknown) =>
    asObject(key) === null
      ? key
      : Object.fromEntries(Object.entries(key as object).filter(([m]) => !PRIVATE_MEMBERS.includes(m)));
  return { keys: keys.map(strip) as JSONWebKeySet['keys'] };
}

/** A JOSE failure as a reason: which key, which signature, or a JWS that is not one (crit, encoding). */
function failureOf(err: unknown): SignatureFailure {
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'signature_invalid';
  if (err instanceof errors.JWKSNoMatchingKey) return 'key_not_found';
  return 'jws_invalid';
}

type Jws = { protected: string; signature: string; payload: string };

/**
 * Verifies with the key set's key for the header; where several keys match (no kid, or a kid repeated), with each
 * until one verifies, as jose leaves the choice to its caller.
 */
async function verifyWith(jws: Jws, keySet: JSONWebKeySet): Promise<SignatureFailure | null> {
  const options = { algorithms: CARD_SIGNATURE_ALGS };
  try {
    await flattenedVerify(jws, createLocalJWKSet(keySet), options);
    return null;
  } catch (err) {
    if (!(err instanceof errors.JWKSMultipleMatchingKeys)) return failureOf(err);
    let reason: SignatureFailure = 'signature_invalid';
    for await (const key of err) {
      try {
        await flattenedVerify(jws, key, options);
        return null;
      } catch (each) {
        reason = failureOf(each);
      }
    }
    return reason;
  }
}

async function verifyOne(entry: unknown, payload: string | null, domain: string, keySets: KeySets) {
  const sig = asObject(entry);
  const none = { alg: null, kid: null, jku: null };
  if (sig === null || typeof sig.protected !== 'string' || typeof sig.signature !== 'string')
    return failed(none, 'malformed');
  const header = readHeader(sig.protected);
  if (header === null) return failed(none, 'header_unreadable');
  const facts = { alg: asString(header.alg), kid: asString(header.kid), jku: asString(header.jku) };
  if (facts.alg === null || !CARD_SIGNATURE_ALGS.includes(facts.alg)) return failed(facts, 'alg_not_allowed');
  if (payload === null) return failed(facts, 'card_not_canonical');
  if (facts.jku === null) return failed(facts, 'no_jku');
  if (!isHttpsUrl(facts.jku) || !urlOnSite(facts.jku, domain)) return failed(facts, 'jku_not_on_site');
  const pending = keySets.get(facts.jku);
  if (pending === 'over_limit') return failed(facts, 'jku_over_limit');
  const keySet = publicKeySet(await pending);
  if (keySet === null) return failed(facts, 'key_set_unavailable');
  const reason = await verifyWith({ protected: sig.protected, signature: sig.signature, payload }, keySet);
  return reason === null ? { ...facts, verified: true, reason: null } : failed(facts, reason);
}

/** The card's signatures, each verified or not with a reason; null when the card has no `signatures` list. */
export async function verifyCardSignatures(
  json: unknown,
  domain: string,
  keySets: KeySets,
): Promise<CardSignature[] | null> {
  const card = asObject(json);
  if (card === null || !Array.isArray(card.signatures)) return null;
  const { signatures, ...signed } = card;
  let payload: string | null;
  try {
    payload = Buffer.from(canonicalJson(signed), 'utf8').toString('base64url');
  } catch {
    payload = null;
  }
  const out: CardSignature[] = [];
  // In order: which key sets fit the budget depends on the order signatures name them.
  for (const entry of (signatures as unknown[]).slice(0, MAX_CARD_SIGNATURES))
    out.push(await verifyOne(entry, payload, domain, keySets));
  return out;
}
