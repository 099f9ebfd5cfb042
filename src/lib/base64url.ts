// base64url without padding (RFC 7515 section 2). Decoding is strict: Node's decoder skips stray characters
// and ignores the unused low bits of the last character, so several strings decode to one byte sequence; a
// verifier that accepted them all would let a signed document be edited without changing its signature.
const ALPHABET = /^[A-Za-z0-9_-]*$/;

export const encodeBase64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/** The bytes of a canonical base64url string, or null when the text is not exactly what encoding them gives. */
export function decodeBase64url(text: string): Uint8Array | null {
  if (!ALPHABET.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? new Uint8Array(bytes) : null;
}
