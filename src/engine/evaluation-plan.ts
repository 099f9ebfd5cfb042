// What judging a tier costs per document, worked out once per ruleset: every observation path the tier's rules
// require and read, numbered, so a document's presence checks and bounded observed values are computed once per
// path however many rules share it, and a rule's evaluation is a walk over small index lists.
import { bounded, valueAt } from './observed.ts';
import type { LoadedRule, ProbeRun } from './types.ts';

interface RequiredPath {
  segments: readonly string[];
  namespace: string;
  /** The error reason when the path is absent, written once. */
  missing: string;
}

export interface PlannedRule {
  rule: LoadedRule;
  /** Indices into the plan's required paths, in the rule's order. */
  requires: readonly number[];
  /** Indices into the plan's read paths (the rule's `reads`, sorted). */
  reads: readonly number[];
}

export interface EvaluationPlan {
  rules: readonly PlannedRule[];
  required: readonly RequiredPath[];
  /** Observed paths: the keys of `observed` and their segments. */
  read: readonly { path: string; segments: readonly string[] }[];
}

export function planEvaluation(rules: readonly LoadedRule[]): EvaluationPlan {
  const requiredIndex = new Map<string, number>();
  const readIndex = new Map<string, number>();
  const required: RequiredPath[] = [];
  const read: EvaluationPlan['read'][number][] = [];
  const planned = rules.map((rule): PlannedRule => {
    const requires = rule.compiled.requires.map(({ path, namespace, segments }) => {
      let i = requiredIndex.get(path);
      if (i === undefined) {
        i = required.push({ segments, namespace, missing: `missing observation ${path}` }) - 1;
        requiredIndex.set(path, i);
      }
      return i;
    });
    const reads = rule.reads.map((path, k) => {
      let i = readIndex.get(path);
      if (i === undefined) {
        i = read.push({ path, segments: rule.readSegments[k]! }) - 1;
        readIndex.set(path, i);
      }
      return i;
    });
    return { rule, requires, reads };
  });
  return { rules: planned, required, read };
}

/** Whether the document has a value at the path (own properties only; undefined counts as missing). */
function present(doc: unknown, segments: readonly string[]): boolean {
  let cur = doc;
  for (let i = 0; i < segments.length; i++) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, segments[i]!)) return false;
    cur = (cur as Record<string, unknown>)[segments[i]!];
  }
  return cur !== undefined;
}

const NOT_YET = Symbol('not computed');

/**
 * One document seen through a plan: why each required path cannot be judged (or null), and each read path's
 * bounded value, each computed on first use and shared by every rule (results share the values; nothing
 * mutates a report after it is built).
 */
export class PlannedDocument {
  private readonly probes: Record<string, ProbeRun | undefined>;
  private readonly probeReasons = new Map<string, string | null>();
  private readonly reasons: (string | null | typeof NOT_YET)[];
  private readonly values: unknown[];

  constructor(
    private readonly plan: EvaluationPlan,
    readonly doc: Record<string, unknown>,
  ) {
    this.probes = (doc.probes ?? {}) as Record<string, ProbeRun | undefined>;
    this.reasons = new Array<string | null | typeof NOT_YET>(plan.required.length).fill(NOT_YET);
    this.values = new Array<unknown>(plan.read.length).fill(NOT_YET);
  }

  private probeReason(namespace: string): string | null {
    let reason = this.probeReasons.get(namespace);
    if (reason === undefined) {
      const run = this.probes[namespace];
      reason =
        run && run.status !== 'ok' ? `probe ${namespace}: ${run.status}${run.error ? ` (${run.error})` : ''}` : null;
      this.probeReasons.set(namespace, reason);
    }
    return reason;
  }

  /** Why the rule cannot be judged on this document, or null when every path it requires is there. */
  unevaluable(planned: PlannedRule): string | null {
    for (const i of planned.requires) {
      let reason: string | null | typeof NOT_YET = this.reasons[i]!;
      if (reason === NOT_YET) {
        const r = this.plan.required[i]!;
        reason = this.probeReason(r.namespace) ?? (present(this.doc, r.segments) ? null : r.missing);
        this.reasons[i] = reason;
      }
      if (reason !== null) return reason;
    }
    return null;
  }

  /** The rule's observed values, by path. */
  observed(planned: PlannedRule): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const i of planned.reads) {
      let v = this.values[i];
      if (v === NOT_YET) {
        v = bounded(valueAt(this.doc, this.plan.read[i]!.segments));
        this.values[i] = v;
      }
      out[this.plan.read[i]!.path] = v;
    }
    return out;
  }
}
