// The engine's public surface: evaluate evidence, run a scan, summarise a report.
export type { Ruleset } from './ruleset.ts';
export { evaluate, evaluateRule, rulesOfTier, ENGINE_VERSION } from './evaluate.ts';
export { scan, planScan, ScanDeadlineError, type ScanOptions, type ScanOutcome } from './observe-and-judge.ts';
export { summarise, topFindings } from './summary.ts';
export { verdictOf, scoreOf } from './verdict.ts';
export type * from './types.ts';
