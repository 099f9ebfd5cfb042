// Generated from schemas/api/batch-result.json by `npm run types`; edit the schema, not this file.

/**
 * One finished item of a batch: a line of the NDJSON results (a row of the CSV).
 */
export interface BatchResult {
  /**
   * Give it as ?after= to resume the results after this line.
   */
  cursor: string;
  domain: string;
  /**
   * Null when the item could not be judged (see error).
   */
  verdict: 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE' | null;
  score: number | null;
  /**
   * The ruleset's version the item was judged with.
   */
  ruleset: string;
  finished_at: string;
  /**
   * Full items: the certificate the item's token paid for (GET /api/certificates/{id}).
   */
  certificate_id?: string;
  /**
   * Why the item has no verdict; a full item's token is then unspent.
   */
  error?: {
    /**
     * not_resolvable, timeout, payment_required, token_used, token_expired, busy or internal.
     */
    code: string;
    message: string;
  };
}
