// Generated from schemas/api/log-inclusion.json by `npm run types`; edit the schema, not this file.

import type { TreeHead } from './tree-head.ts';

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
