// Generated from schemas/api/log-inclusion.json by `npm run types`; edit the schema, not this file.

/**
 * Proof that a certificate is in the transparency log: its leaf is the certificate's canonical JSON {payload, jws} (the body GET /api/certificates/{id} serves), its leaf hash SHA-256(0x00 || leaf), and the inclusion path (RFC 9162 section 2.1.3) leads to the root hash of the signed tree head.
 */
export interface LogInclusion {
  certificate_id: string;
  /**
   * The certificate's position in the log, from 0.
   */
  leaf_index: number;
  /**
   * The size of the tree the path leads to: tree_head.tree_size.
   */
  tree_size: number;
  /**
   * The sibling subtree hashes from the leaf upwards, lower-case hex.
   *
   * @maxItems 64
   */
  inclusion_path: string[];
  tree_head: TreeHead;
}
/**
 * A signed tree head of the certificate transparency log (RFC 9162 section 2.1 hashing). The signature is a detached JWS (typ dvs-tree-head+jws, alg Ed25519 (EdDSA before RFC 9864's identifier was adopted), kid of a key in /.well-known/jwks.json) over the RFC 8785 canonical JSON of this object without signature: {"root_hash":...,"timestamp":...,"tree_size":...}.
 */
export interface TreeHead {
  /**
   * How many certificates the log held.
   */
  tree_size: number;
  /**
   * MTH of the first tree_size leaves, lower-case hex (SHA-256 of the empty string for an empty log).
   */
  root_hash: string;
  /**
   * When the service first signed a head of this size (RFC 3339, UTC).
   */
  timestamp: string;
  /**
   * Detached compact JWS: base64url(protected header), an empty payload part, base64url(64-byte Ed25519 signature).
   */
  signature: string;
}
