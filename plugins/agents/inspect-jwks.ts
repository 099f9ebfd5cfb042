// Facts about a JSON Web Key Set (RFC 7517), as published at /.well-known/jwks.json or as a Web Bot Auth key
// directory. Thumbprints (RFC 7638, RFC 8037 for OKP) come from jose; `observedAt` dates the nbf/exp check.
import { calculateJwkThumbprint } from 'jose/jwk/thumbprint';
import jwkSetSchema from './schemas/jwk-set.json' with { type: 'json' };
import { documentValidator, violationText, type SchemaViolation } from './document-schema.ts';
import { asArray, asObject, asString } from './json-value.ts';

const validateJwkSet = documentValidator(jwkSetSchema, 'JWKSet');

/** Members that only a private or symmetric key carries (RFC 7518 sections 6.2.2, 6.3.2, 6.4.1). */
const PRIVATE_MEMBERS = ['d', 'dp', 'dq', 'k', 'oth', 'p', 'q', 'qi'];

export interface JwkFacts {
  kid: string | null;
  kty: string | null;
  alg: string | null;
  use: string | null;
  private_members: string[];
  nbf: string | null;
  exp: string | null;
  kid_is_thumbprint: boolean | null;
}

export interface JwksFacts {
  /** Facts per key; rules count them (`length`, `all`, `none`), so no count is kept beside them. */
  keys: JwkFacts[];
  private_members: string[];
  duplicate_kids: string[];
  keys_valid_at_observation_count: number;
  /** Members that break RFC 7517/7518/8037 (a key type's required members, member types), as violation lines. */
  form_violations: string[];
  /** Values that are not base64url without padding (RFC 7515 section 2), as violation lines. */
  encoding_violations: string[];
}

/** A NumericDate (seconds since the epoch) as an ISO date, or null. */
function numericDate(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const date = new Date(value * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

async function thumbprintMatches(key: Record<string, unknown>, kid: string | null): Promise<boolean | null> {
  if (kid === null) return null;
  try {
    return (await calculateJwkThumbprint(key, 'sha256')) === kid;
  } catch {
    // jose refuses keys lacking the members a thumbprint covers: such a kid cannot be a thumbprint.
    return false;
  }
}

/**
 * A key without a member its type requires cannot be imported at all; a value in standard base64 or padded is
 * read by most decoders and refused by strict ones, so the two are separate facts.
 */
function splitViolations(violations: readonly SchemaViolation[]) {
  const encoding = (v: SchemaViolation) => v.keyword === 'pattern';
  return {
    form_violations: violations.filter((v) => !encoding(v)).map(violationText),
    encoding_violations: violations.filter(encoding).map(violationText),
  };
}

export async function inspectJwks(json: unknown, observedAt: string): Promise<JwksFacts> {
  const list = asArray(asObject(json)?.keys);
  const keys: JwkFacts[] = [];
  for (const item of list ?? []) {
    const key = asObject(item) ?? {};
    const kid = asString(key.kid);
    keys.push({
      kid,
      kty: asString(key.kty),
      alg: asString(key.alg),
      use: asString(key.use),
      private_members: PRIVATE_MEMBERS.filter((m) => key[m] !== undefined),
      nbf: numericDate(key.nbf),
      exp: numericDate(key.exp),
      kid_is_thumbprint: await thumbprintMatches(key, kid),
    });
  }
  const kidCounts = new Map<string, number>();
  for (const k of keys) if (k.kid !== null) kidCounts.set(k.kid, (kidCounts.get(k.kid) ?? 0) + 1);
  const now = Date.parse(observedAt);
  const validNow = (k: JwkFacts): boolean =>
    (k.nbf === null || Date.parse(k.nbf) <= now) && (k.exp === null || Date.parse(k.exp) > now);

  return {
    keys,
    private_members: [...new Set(keys.flatMap((k) => k.private_members))].sort(),
    duplicate_kids: [...kidCounts]
      .filter(([, n]) => n > 1)
      .map(([kid]) => kid)
      .sort(),
    keys_valid_at_observation_count: keys.filter(validNow).length,
    ...splitViolations(list ? validateJwkSet(json) : []),
  };
}
