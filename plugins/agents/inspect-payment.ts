// Facts about an HTTP 402 answer: which payment challenge it carries. x402 v2 puts a base64 JSON object in the
// PAYMENT-REQUIRED header, x402 v1 put the same object in the JSON body; MPP and L402 use WWW-Authenticate
// schemes (`Payment`, `L402`); Cloudflare pay per crawl sends `crawler-price`.
import { asArray, asObject, parseJson } from './json-value.ts';
import { SPACE_OR_TAB, trimOf } from '../../src/lib/trim.ts';

export interface PaymentChallengeFacts {
  url: string;
  payment_required_header: boolean;
  x402_version: number | null;
  x402_accepts_count: number | null;
  x402_accepts_incomplete_count: number | null;
  www_authenticate_schemes: string[];
  crawler_price: boolean;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/** Splits on commas outside quoted strings. */
function splitOutsideQuotes(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' && text[i - 1] !== '\\') quoted = !quoted;
    if (c === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** The auth-scheme names of a WWW-Authenticate value (RFC 9110 section 11.6.1), lower-cased and sorted. */
export function challengeSchemes(header: string | null): string[] {
  if (header === null) return [];
  const schemes = new Set<string>();
  for (const part of splitOutsideQuotes(header)) {
    const trimmed = trimOf(part, SPACE_OR_TAB);
    const token = TOKEN.exec(trimmed)?.[0];
    // A token followed by "=" starts an auth-param of the previous challenge, not a new scheme.
    if (token && !/^\s*=/.test(trimmed.slice(token.length))) schemes.add(token.toLowerCase());
  }
  return [...schemes].sort();
}

/** The x402 v2 header carries its JSON object in base64. */
function decodeBase64Json(value: string): unknown {
  return parseJson(Buffer.from(trimOf(value, SPACE_OR_TAB), 'base64').toString('utf8'));
}

function acceptComplete(item: unknown): boolean {
  const a = asObject(item);
  return (
    a !== null &&
    ['scheme', 'network', 'asset', 'payTo'].every((k) => typeof a[k] === 'string') &&
    (typeof a.amount === 'string' || typeof a.maxAmountRequired === 'string') &&
    typeof a.maxTimeoutSeconds === 'number'
  );
}

export function inspectPaymentChallenge(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
): PaymentChallengeFacts {
  const header = headers['payment-required'] ?? null;
  const offer = asObject(header !== null ? decodeBase64Json(header) : parseJson(body));
  const version = typeof offer?.x402Version === 'number' ? offer.x402Version : null;
  const accepts = version !== null ? asArray(offer?.accepts) : null;
  return {
    url,
    payment_required_header: header !== null,
    x402_version: version,
    x402_accepts_count: accepts ? accepts.length : null,
    x402_accepts_incomplete_count: accepts ? accepts.filter((a) => !acceptComplete(a)).length : null,
    www_authenticate_schemes: challengeSchemes(headers['www-authenticate'] ?? null),
    crawler_price: headers['crawler-price'] !== undefined,
  };
}
