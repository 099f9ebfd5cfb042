// The OpenPGP cleartext signature of a security.txt (RFC 9116 section 2.3; the frame is RFC 4880 section 7,
// RFC 9580 section 7), checked in two steps:
//
// 1. Without any key, the digest check: a v4 signature carries the left 16 bits of the hash it signed
//    (RFC 4880 section 5.2.4). Hashing the canonical text (trailing spaces and tabs removed from every line, CRLF
//    line endings) with the signature's hashed data shows whether the text is still the one that was signed; a
//    text edited after signing fails it with probability 1 - 2^-16.
// 2. With the keys the site publishes, a full verification by openpgp (OpenPGP.js) at the observation date.
//
// RFC 9116 names no signing key. The keys tried are the ones the file's own Encryption fields point to on the
// site's own hosts (fetched by the facet): a key the site serves is under the same control as the file.
import { createHash } from 'node:crypto';
import * as openpgp from 'openpgp';
import { SPACE_OR_TAB, trimEndOf } from '../../src/lib/trim.ts';

export type SignatureVerification = 'unreadable' | 'digest_mismatch' | 'no_known_key' | 'failed' | 'verified';

export interface SignatureCheck {
  /** What the check found; see the schema's description of each value. */
  verification: SignatureVerification;
  /** The issuer key ID the signature names (16 hex digits, lower-case), or null when unreadable. */
  keyId: string | null;
  /** The signature's creation time (ISO), or null. */
  created: string | null;
  /** Why openpgp refused a signature made by a key that was found, or null. */
  error: string | null;
}

/** Node's names of the OpenPGP hash algorithms (RFC 9580 section 9.5) a digest check can compute. */
const NODE_HASHES: Partial<Record<number, string>> = {
  1: 'md5',
  2: 'sha1',
  3: 'ripemd160',
  8: 'sha256',
  9: 'sha384',
  10: 'sha512',
  11: 'sha224',
  12: 'sha3-256',
  14: 'sha3-512',
};

/** The signed text as RFC 4880 section 7.1 hashes it: trailing blanks dropped, CRLF line endings. */
function canonicalText(text: string): Buffer {
  return Buffer.from(
    text
      .split(/\r?\n/)
      .map((line) => trimEndOf(line, SPACE_OR_TAB))
      .join('\r\n'),
    'utf8',
  );
}

/** Step 1 for a v4 signature; null when it cannot be computed (another version, an unknown hash). */
function digestMatches(sig: openpgp.SignaturePacket, text: string): boolean | null {
  const name = sig.hashAlgorithm === null ? undefined : NODE_HASHES[sig.hashAlgorithm];
  if (sig.version !== 4 || !name || !sig.signatureData || !sig.signedHashValue) return null;
  const trailer = Buffer.alloc(6);
  trailer[0] = 0x04;
  trailer[1] = 0xff;
  trailer.writeUInt32BE(sig.signatureData.length, 2);
  const hash = createHash(name).update(canonicalText(text)).update(sig.signatureData).update(trailer).digest();
  return hash[0] === sig.signedHashValue[0] && hash[1] === sig.signedHashValue[1];
}

/** Public keys from armored or binary key files; files that hold none are skipped. */
export async function readPublicKeys(files: Uint8Array[]): Promise<openpgp.Key[]> {
  const keys: openpgp.Key[] = [];
  for (const bytes of files) {
    const text = Buffer.from(bytes).toString('utf8');
    try {
      keys.push(
        ...(text.includes('-----BEGIN PGP PUBLIC KEY BLOCK-----')
          ? await openpgp.readKeys({ armoredKeys: text })
          : await openpgp.readKeys({ binaryKeys: bytes })),
      );
    } catch {
      // Not an OpenPGP key: the file simply offers no key to verify with.
    }
  }
  return keys;
}

/** Checks the cleartext-signed file `armored` against `keys` at `observedAt`. */
export async function checkCleartextSignature(
  armored: string,
  keys: openpgp.Key[],
  observedAt: string,
): Promise<SignatureCheck> {
  let message: openpgp.CleartextMessage;
  let sig: openpgp.SignaturePacket | undefined;
  try {
    message = await openpgp.readCleartextMessage({ cleartextMessage: armored });
    const block = /-----BEGIN PGP SIGNATURE-----[\s\S]*?-----END PGP SIGNATURE-----/.exec(armored)?.[0] ?? '';
    sig = (await openpgp.readSignature({ armoredSignature: block })).packets[0];
  } catch {
    sig = undefined;
  }
  if (!sig) return { verification: 'unreadable', keyId: null, created: null, error: null };
  const facts = { keyId: sig.issuerKeyID.toHex(), created: sig.created?.toISOString() ?? null };
  if (digestMatches(sig, message!.getText()) === false)
    return { verification: 'digest_mismatch', ...facts, error: null };
  const signer = keys.filter((k) => k.getKeys(sig.issuerKeyID).length > 0);
  if (signer.length === 0) return { verification: 'no_known_key', ...facts, error: null };
  const [result] = await message!.verify(signer, new Date(observedAt));
  try {
    await result!.verified;
    return { verification: 'verified', ...facts, error: null };
  } catch (err) {
    return { verification: 'failed', ...facts, error: (err as Error).message.slice(0, 200) };
  }
}
