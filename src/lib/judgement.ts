// The words of a judgement, shared by the engine that reaches it and the certificate that states it.
export type Tier = 'quick' | 'full';
export type Level = 'required' | 'recommended' | 'informational';
export type Outcome = 'pass' | 'fail' | 'not_applicable' | 'error';
export type Verdict = 'CERTIFIED' | 'NOT_CONFORMANT' | 'INCOMPLETE';
