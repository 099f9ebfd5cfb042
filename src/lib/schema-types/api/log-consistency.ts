// Generated from schemas/api/log-consistency.json by `npm run types`; edit the schema, not this file.

/**
 * Proof that the log of size `to` extends the log of size `from` without changing it (RFC 9162 section 2.1.4): verify it against the root hashes of two signed tree heads of those sizes.
 */
export interface LogConsistency {
  from: number;
  to: number;
  /**
   * The subtree hashes of the proof, lower-case hex; empty when from equals to.
   *
   * @maxItems 128
   */
  consistency_path: string[];
}
