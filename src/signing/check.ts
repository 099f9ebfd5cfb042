// One check of a verification: what was checked, whether it held, and what was found.
export interface Check {
  name:
    | 'structure'
    | 'id'
    | 'anchor'
    | 'issuer'
    | 'validity'
    | 'jws_header'
    | 'signature'
    | 'subject_anchor'
    | 'issuer_anchor'
    | 'inclusion'
    | 'log'
    | 'status'
    | 'evidence'
    | 'reevaluation';
  ok: boolean;
  detail: string;
}
