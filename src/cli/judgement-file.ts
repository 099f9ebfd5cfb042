// Reads the judgement a file holds, in any shape the service hands one out: a report (`dvs scan --json`), a
// certificate (`{payload, jws}`), a Full Validation's answer (`{certificate, report}`, whose report keeps what
// every rule read) or the ScanResult around either.
import type { Judgement } from '../lib/report-diff.ts';
import { readJsonFile, UsageError } from './io.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function judgementIn(doc: unknown): Judgement | null {
  if (!isObject(doc)) return null;
  if (isObject(doc.structuredContent)) return judgementIn(doc.structuredContent);
  if (isObject(doc.report)) return judgementIn(doc.report);
  if (isObject(doc.payload)) return judgementIn(doc.payload);
  const judged =
    (doc.type === 'dvs.report' || doc.type === 'dvs.certificate') &&
    typeof doc.domain === 'string' &&
    typeof doc.observed_at === 'string' &&
    typeof doc.verdict === 'string' &&
    typeof doc.score === 'number' &&
    isObject(doc.ruleset) &&
    Array.isArray(doc.results) &&
    doc.results.every((r) => isObject(r) && typeof r.id === 'string' && typeof r.outcome === 'string');
  return judged ? (doc as unknown as Judgement) : null;
}

/** The judgement in a JSON file; anything else is the user's to fix (exit 2, with what was expected). */
export function readJudgement(file: string): Judgement {
  const judgement = judgementIn(readJsonFile(file));
  if (!judgement) {
    throw new UsageError(
      `${file}: not a report or a certificate (expected the JSON of dvs scan --json, a certificate {payload, jws}, or a Full Validation result)`,
    );
  }
  return judgement;
}
