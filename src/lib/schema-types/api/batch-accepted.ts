// Generated from schemas/api/batch-accepted.json by `npm run types`; edit the schema, not this file.

/**
 * A batch the service accepted (202): its id, where to follow it (the Location header), and the entries it did not take.
 */
export interface BatchAccepted {
  /**
   * The batch id.
   */
  id: string;
  status: 'queued' | 'running' | 'done' | 'cancelled';
  /**
   * Items accepted: distinct valid domains.
   */
  total: number;
  /**
   * Entries not taken, each with its position in the request and why.
   */
  rejected: {
    /**
     * Position in `domains` or `items`, from 0.
     */
    index: number;
    /**
     * The entry as sent.
     */
    domain: string;
    /**
     * invalid_domain; duplicate (the same domain is earlier in the batch and is scanned once); or invalid_token (a full item whose payment_token is not one this service issues: not shaped as its tokens, or a test token where live ones are taken, or the reverse).
     */
    code: 'invalid_domain' | 'duplicate' | 'invalid_token';
    /**
     * What is wrong with it.
     */
    error: string;
  }[];
}
