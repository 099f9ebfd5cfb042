// Signed tree heads of the certificate transparency log. The signature is a detached JWS (as a certificate's,
// so any JOSE library checks it) with its own type, so a signature made for a tree head is never accepted as
// a certificate's or the other way round (RFC 8725 section 3.11). The signed bytes are the RFC 8785 canonical
// JSON of {root_hash, timestamp, tree_size}: the head without its signature.
import { canonicalBytes } from '../lib/canonical-json.ts';
import type { Jwks } from './jwks.ts';
import { signDetached, verifyDetached } from './jws.ts';
import type { SigningKey } from './keys.ts';
import { shapeProblem, validTreeHead, type TreeHead } from './log-shapes.ts';

export type { TreeHead };

export const TREE_HEAD_TYP = 'dvs-tree-head+jws';

export type UnsignedTreeHead = Omit<TreeHead, 'signature'>;

/** The bytes a tree head's JWS signs. */
export const treeHeadBytes = ({ tree_size, root_hash, timestamp }: UnsignedTreeHead): Uint8Array =>
  canonicalBytes({ root_hash, timestamp, tree_size });

export function signTreeHead(head: UnsignedTreeHead, key: Pick<SigningKey, 'kid' | 'privateKeyObject'>): TreeHead {
  return { ...head, signature: signDetached(treeHeadBytes(head), key, TREE_HEAD_TYP) };
}

export type TreeHeadCheck = { ok: true; head: TreeHead; kid: string } | { ok: false; reason: string };

/** The head's shape and its signature by a key of the set. */
export function verifyTreeHead(value: unknown, jwks: Jwks): TreeHeadCheck {
  if (!validTreeHead(value)) return { ok: false, reason: `not a tree head: ${shapeProblem(validTreeHead)}` };
  const verified = verifyDetached(value.signature, treeHeadBytes(value), jwks, TREE_HEAD_TYP);
  if (!verified.ok) return { ok: false, reason: `tree head of size ${value.tree_size}: ${verified.reason}` };
  return { ok: true, head: value, kid: verified.header.kid };
}
