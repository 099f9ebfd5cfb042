// Generated from schemas/api/tree-head.json by `npm run types`; edit the schema, not this file.

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
