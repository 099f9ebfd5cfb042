// Payment tokens: 256 bits, base64url, with a prefix that tells test tokens from live ones at a glance.
// The ledger keeps only a token's SHA-256, so a leaked database cannot be spent.
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

export type TokenMode = 'test' | 'live';

const PREFIX: Record<TokenMode, string> = { test: 'dvs_test_', live: 'dvs_live_' };
const TOKEN_BYTES = 32;
/** 32 bytes are 43 base64url characters without padding. */
const TOKEN_FORMAT = /^dvs_(?:test|live)_[A-Za-z0-9_-]{43}$/;

export function newToken(mode: TokenMode): string {
  return PREFIX[mode] + randomBytes(TOKEN_BYTES).toString('base64url');
}

/** The mode a token was minted in, by its prefix (for a token-shaped text). */
export function tokenModeOf(token: string): TokenMode {
  return token.startsWith(PREFIX.live) ? 'live' : 'test';
}

/** True for text shaped like a token; anything else is refused before the ledger is asked. */
export function isTokenShaped(text: string): boolean {
  return TOKEN_FORMAT.test(text);
}

/** What the ledger stores and looks up: the hex SHA-256 of the whole token, prefix included. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * A token derived from a processor's payment reference (a Stripe Checkout Session id) with a key only the
 * service holds. The webhook and the success page compute the same token independently, so the ledger never
 * has to keep the token itself to show it to the buyer.
 */
export class TokenDeriver {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly mode: TokenMode,
  ) {
    this.key = Buffer.from(
      hkdfSync('sha256', secret, Buffer.alloc(0), 'dvs payment token from checkout reference v1', TOKEN_BYTES),
    );
  }

  tokenFor(reference: string): string {
    return PREFIX[this.mode] + createHmac('sha256', this.key).update(reference, 'utf8').digest('base64url');
  }
}
