// Generated from schemas/api/domain-history.json by `npm run types`; edit the schema, not this file.

import type { CertificateStatus } from './certificate-status.ts';

/**
 * One page of a domain's validation history: the Full Validations the ledger keeps for it, newest first, each with its certificate's status now and the rules whose outcome changed since the validation before it.
 */
export interface DomainHistory {
  domain: string;
  /**
   * @maxItems 100
   */
  entries: Entry[];
  /**
   * Give it as ?before= for the next, older page; null when this page reaches the first validation kept.
   */
  next: string | null;
}
export interface Entry {
  certificate_id: string;
  observed_at: string;
  issued_at: string;
  verdict: 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE';
  score: number;
  ruleset_version: string;
  status: CertificateStatus;
  /**
   * The rules whose outcome changed since the validation before this one, ordered by rule id; null for the first validation kept.
   */
  changes: Change[] | null;
}
export interface Change {
  id: string;
  level: 'required' | 'recommended' | 'informational';
  before: Side;
  after: Side;
}
export interface Side {
  /**
   * Null when the rule was not part of that validation's ruleset.
   */
  outcome: 'pass' | 'fail' | 'not_applicable' | 'error' | null;
  /**
   * The values the rule read, as the certificate kept them (for a failing or unevaluated rule).
   */
  observed?: {};
}
