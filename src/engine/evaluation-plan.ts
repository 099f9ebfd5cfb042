// What judging a tier costs per document, worked out once per ruleset: every observation path the tier's rules
// require and read, numbered, so a document's presence checks, var lookups and bounded observed values are
// computed once per path however many rules share it, and a rule's evaluation is a walk over small index lists.
import type { Compiled, RootInput } from './compile.ts';
import { bounded, valueAt } from './observed.ts';
import { pathLoads, recordsOf, type PathLoads, type RecordsOf } from './plan-code.ts';
import type { Level, LoadedRule, ProbeRun } from './types.ts';

interface RequiredPath {
  /** Its index among the plan's paths. */
  at: number;
  /** Its namespace's index among the plan's namespaces. */
  probe: number;
  /** The error reason when the path is absent, written once. */
  missing: string;
}

/**
 * A path the plan looks up, with every prefix of it before it (`dns`, `dns.spf`, `dns.spf.parsed`): each is one
 * step from its parent's value, so a path shared by many rules, or a prefix shared by many paths, is read once.
 */
interface PlanPath {
  path: string;
  segments: readonly string[];
  /** The prefix's index, or -1 below the document itself. */
  parent: number;
  /** The last segment. */
  key: string;
  /** Shown in results' `observed` (a path of some rule's `reads`). */
  shown: boolean;
  /**
   * The key names a member every object inherits (`constructor`, `toString`...): json-logic's lookup finds it
   * where the observed value and the presence check (own properties only) do not, so those look it up apart.
   */
  inherited: boolean;
}

/**
 * A rule as the evaluation loop reads it: what a result names and the compiled logic, copied out of the loaded
 * rule (whose shape varies with its optional fields) into objects of one shape, so each read is a plain load.
 */
export interface PlannedRule {
  /** Its index among the plan's rules. */
  index: number;
  id: string;
  version: number;
  level: Level;
  when: Compiled | null;
  check: Compiled;
  /** The keys of its `observed`, in order. */
  keys: readonly string[];
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
  paths: readonly PlanPath[];
  /** The namespaces of the required paths: the probes whose runs decide whether a rule can be judged. */
  namespaces: readonly string[];
  /** Every rule's `observed`, in the rules' order, from the bounded values by path index. */
  observed: RecordsOf;
  /** json-logic's value at every path, each read from its parent's. */
  load: PathLoads;
}

export function planEvaluation(rules: readonly LoadedRule[]): EvaluationPlan {
  const requiredIndex = new Map<string, number>();
  const pathIndex = new Map<string, number>();
  const required: RequiredPath[] = [];
  const paths: PlanPath[] = [];
  const namespaces: string[] = [];
  const indexOf = (path: string, shown: boolean): number => {
    let i = pathIndex.get(path);
    if (i === undefined) {
      const segments = path.split('.');
      const key = segments[segments.length - 1]!;
      const parent = segments.length > 1 ? indexOf(segments.slice(0, -1).join('.'), false) : -1;
      i = paths.push({ path, segments, parent, key, shown, inherited: key in Object.prototype }) - 1;
      pathIndex.set(path, i);
    } else if (shown) paths[i]!.shown = true;
    return i;
  };
  const planned = rules.map((rule, index): PlannedRule => {
    const requires = rule.compiled.requires.map(({ path, namespace }) => {
      let i = requiredIndex.get(path);
      if (i === undefined) {
        let probe = namespaces.indexOf(namespace);
        if (probe === -1) probe = namespaces.push(namespace) - 1;
        const at = indexOf(path, false);
        i = required.push({ at, probe, missing: `missing observation ${path}` }) - 1;
        requiredIndex.set(path, i);
      }
      return i;
    });
    const reads = rule.reads.map((path) => indexOf(path, true));
    const vars = rule.compiled.paths.map((path) => indexOf(path, false));
    const { id, version, level } = rule;
    const { when, check } = rule.compiled;
    return { index, id, version, level, when, check, keys: rule.reads, requires, reads, vars };
  });
  return {
    rules: planned,
    required,
    paths,
    namespaces,
    observed: recordsOf(planned.map((r) => ({ keys: r.keys, at: r.reads }))),
    load: pathLoads(paths),
  };
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
  /** Every rule's observed values, by the rule's index. */
  private readonly records: Record<string, unknown>[];
  private vars = NO_VARS;

  constructor(
    private readonly plan: EvaluationPlan,
    readonly doc: Record<string, unknown>,
  ) {
    const { paths, required } = plan;
    const n = paths.length;
    this.values = new Array<unknown>(n);
    this.shown = new Array<unknown>(n);
    // Whether every step to the value was an own, not inherited, property of an object: then json-logic's value
    // is also the observed one (null where missing) and the presence check's.
    const plain = new Array<boolean>(n);
    plan.load(doc, this.values);
    for (let i = 0; i < n; i++) {
      const p = paths[i]!;
      const from: unknown = p.parent < 0 ? doc : this.values[p.parent];
      const value = this.values[i];
      let ownSteps = p.parent < 0 || plain[p.parent]!;
      if (
        from !== null &&
        from !== undefined &&
        (typeof from !== 'object' || p.inherited || typeof value === 'function')
      )
        ownSteps = false;
      plain[i] = ownSteps;
      if (p.shown) this.shown[i] = bounded(ownSteps ? (value ?? null) : valueAt(doc, p.segments));
    }
    const probes = (doc.probes ?? {}) as Record<string, ProbeRun | undefined>;
    const probeReasons = plan.namespaces.map((namespace) => {
      const run = probes[namespace];
      return run && run.status !== 'ok'
        ? `probe ${namespace}: ${run.status}${run.error ? ` (${run.error})` : ''}`
        : null;
    });
    this.reasons = new Array<string | null>(required.length);
    for (let i = 0; i < required.length; i++) {
      const r = required[i]!;
      const probe = probeReasons[r.probe];
      const there = plain[r.at] ? this.values[r.at] !== undefined : present(doc, paths[r.at]!.segments);
      this.reasons[i] = probe ?? (there ? null : r.missing);
    }
    this.records = plan.observed(this.shown);
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
    return this.records[planned.index]!;
  }
}
