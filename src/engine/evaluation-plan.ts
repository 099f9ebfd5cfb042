// What judging a tier costs per document, worked out once per ruleset: every observation path the tier's rules
// require and read, numbered, so a document's presence checks, var lookups and bounded observed values are
// computed once per path however many rules share it, and a rule's evaluation is a walk over small index lists.
import type { RootInput } from './compile.ts';
import { bounded, valueAt } from './observed.ts';
import type { LoadedRule, ProbeRun } from './types.ts';

interface RequiredPath {
  segments: readonly string[];
  namespace: string;
  /** The error reason when the path is absent, written once. */
  missing: string;
}

interface ReadPath {
  path: string;
  segments: readonly string[];
  /** Shown in results' `observed` (a path of some rule's `reads`). */
  shown: boolean;
  /**
   * A step names a member every object inherits (`constructor`, `toString`...): json-logic's lookup finds it
   * where the observed value (own properties only) does not, so the two are looked up apart.
   */
  inherited: boolean;
}

export interface PlannedRule {
  rule: LoadedRule;
  /** Indices into the plan's required paths, in the rule's order. */
  requires: readonly number[];
  /** Indices into the plan's paths of the rule's `reads` (sorted): the keys of its `observed`. */
  reads: readonly number[];
  /** Indices into the plan's paths of its compiled logic's top-level vars: what `read(k)` answers. */
  vars: readonly number[];
}

export interface EvaluationPlan {
  rules: readonly PlannedRule[];
  required: readonly RequiredPath[];
  paths: readonly ReadPath[];
}

export function planEvaluation(rules: readonly LoadedRule[]): EvaluationPlan {
  const requiredIndex = new Map<string, number>();
  const pathIndex = new Map<string, number>();
  const required: RequiredPath[] = [];
  const paths: ReadPath[] = [];
  const indexOf = (path: string, shown: boolean): number => {
    let i = pathIndex.get(path);
    if (i === undefined) {
      const segments = path.split('.');
      i = paths.push({ path, segments, shown, inherited: segments.some((s) => s in Object.prototype) }) - 1;
      pathIndex.set(path, i);
    } else if (shown) paths[i]!.shown = true;
    return i;
  };
  const planned = rules.map((rule): PlannedRule => {
    const requires = rule.compiled.requires.map(({ path, namespace, segments }) => {
      let i = requiredIndex.get(path);
      if (i === undefined) {
        i = required.push({ segments, namespace, missing: `missing observation ${path}` }) - 1;
        requiredIndex.set(path, i);
      }
      return i;
    });
    const reads = rule.reads.map((path) => indexOf(path, true));
    const vars = rule.compiled.paths.map((path) => indexOf(path, false));
    return { rule, requires, reads, vars };
  });
  return { rules: planned, required, paths };
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

const NO_VARS: readonly number[] = [];

/**
 * One document seen through a plan, worked out when it is made: why each required path cannot be judged (or
 * null), json-logic's value at each path, and each shown path's bounded value, shared by every rule (results
 * share the values; nothing mutates a report after it is built). It is the RootInput of the rule being judged
 * (`select` says which).
 */
export class PlannedDocument implements RootInput {
  /** json-logic's `var` value per path, undefined where it finds nothing. */
  private readonly values: unknown[];
  /** The bounded observed value per shown path. */
  private readonly shown: unknown[];
  private readonly reasons: (string | null)[];
  private vars = NO_VARS;

  constructor(
    private readonly plan: EvaluationPlan,
    readonly doc: Record<string, unknown>,
  ) {
    const { paths, required } = plan;
    this.values = new Array<unknown>(paths.length);
    this.shown = new Array<unknown>(paths.length);
    for (let i = 0; i < paths.length; i++) {
      const p = paths[i]!;
      // One walk gives both values while every step is an object: then own and looked-up properties agree.
      let cur: unknown = doc;
      let plain = !p.inherited;
      for (let s = 0; s < p.segments.length; s++) {
        if (cur === null || cur === undefined) {
          cur = undefined;
          break;
        }
        if (typeof cur !== 'object') plain = false;
        cur = (cur as Record<string, unknown>)[p.segments[s]!];
        if (cur === undefined) break;
      }
      if (typeof cur === 'function') plain = false;
      this.values[i] = cur;
      if (p.shown) this.shown[i] = bounded(plain ? (cur ?? null) : valueAt(doc, p.segments));
    }
    const probes = (doc.probes ?? {}) as Record<string, ProbeRun | undefined>;
    const probeReasons = new Map<string, string | null>();
    this.reasons = new Array<string | null>(required.length);
    for (let i = 0; i < required.length; i++) {
      const r = required[i]!;
      let probe = probeReasons.get(r.namespace);
      if (probe === undefined) {
        const run = probes[r.namespace];
        probe =
          run && run.status !== 'ok'
            ? `probe ${r.namespace}: ${run.status}${run.error ? ` (${run.error})` : ''}`
            : null;
        probeReasons.set(r.namespace, probe);
      }
      this.reasons[i] = probe ?? (present(doc, r.segments) ? null : r.missing);
    }
  }

  /** The rule whose logic reads through this document next. */
  select(planned: PlannedRule): void {
    this.vars = planned.vars;
  }

  read(k: number): unknown {
    return this.values[this.vars[k]!];
  }

  /** Why the rule cannot be judged on this document, or null when every path it requires is there. */
  unevaluable(planned: PlannedRule): string | null {
    const { requires } = planned;
    for (let i = 0; i < requires.length; i++) {
      const reason = this.reasons[requires[i]!]!;
      if (reason !== null) return reason;
    }
    return null;
  }

  /** The rule's observed values, by path. */
  observed(planned: PlannedRule): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const { reads } = planned;
    for (let i = 0; i < reads.length; i++) out[this.plan.paths[reads[i]!]!.path] = this.shown[reads[i]!];
    return out;
  }
}
