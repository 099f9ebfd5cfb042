// Compiled rules judge exactly as json-logic-js does: every rule of the catalogue, over its own examples and over
// documents generated from the observation schemas, through the compiled closures and through the reference
// interpreter (json-logic-js over the view of the rule's required paths, as the engine evaluated before).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLogic, compileRootLogic, rootInput } from '../../src/engine/compile.ts';
import { evaluateRule } from '../../src/engine/evaluate.ts';
import { planEvaluation, PlannedDocument } from '../../src/engine/evaluation-plan.ts';
import { bounded, readPaths, valueAt } from '../../src/engine/observed.ts';
import { refTarget, type SchemaNode } from '../../src/engine/schema-paths.ts';
import type { LoadedRule, Observations, Outcome, ProbeRun } from '../../src/engine/types.ts';
import { applyReference, truthy } from '../helpers/json-logic-reference.ts';
import { checkedCatalogue } from '../suite/ruleset.ts';

const ruleset = checkedCatalogue();

const MISSING = Symbol('missing');

function lookup(doc: unknown, dotted: string): unknown {
  let cur: unknown = doc;
  for (const part of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return MISSING;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined ? MISSING : cur;
}

function assign(view: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let cur = view;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== 'object') cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** The reference: json-logic-js over a view holding only the rule's required paths and the target. */
function reference(rule: LoadedRule, doc: Record<string, unknown>): { outcome: Outcome; reason?: string } {
  const probes = (doc.probes ?? {}) as Record<string, ProbeRun>;
  const target = doc.target as Observations['target'] | undefined;
  const view: Record<string, unknown> = {
    target: { domain: target?.domain ?? null, observed_at: target?.observed_at ?? null },
  };
  for (const p of rule.requires) {
    const ns = p.split('.')[0]!;
    const run = probes[ns];
    if (run && run.status !== 'ok')
      return { outcome: 'error', reason: `probe ${ns}: ${run.status}${run.error ? ` (${run.error})` : ''}` };
    const value = lookup(doc, p);
    if (value === MISSING) return { outcome: 'error', reason: `missing observation ${p}` };
    if (!rule.requires.some((q) => p.startsWith(q + '.'))) assign(view, p, value);
  }
  try {
    if (rule.when !== undefined && !truthy(applyReference(rule.when, view))) return { outcome: 'not_applicable' };
    return { outcome: truthy(applyReference(rule.check, view)) ? 'pass' : 'fail' };
  } catch {
    return { outcome: 'error' };
  }
}

function compare(rule: LoadedRule, doc: Record<string, unknown>): Outcome {
  const want = reference(rule, doc);
  const got = evaluateRule(rule, doc);
  const agree = got.outcome === want.outcome && (want.reason === undefined || got.reason === want.reason);
  // The context is built only for a disagreement: serialising every document for every rule costs seconds.
  if (!agree) expect({ got, doc }, rule.id).toMatchObject({ got: want });
  return got.outcome;
}

/** Every literal string and number in the catalogue's logic: the values generated documents draw from. */
function literals(): { strings: string[]; numbers: number[] } {
  const strings = new Set<string>(['', 'yes', 'https://example.test/']);
  const numbers = new Set<number>([0, 1, -1]);
  const walk = (n: unknown): void => {
    if (typeof n === 'string') strings.add(n);
    else if (typeof n === 'number') [n - 1, n, n + 1].forEach((x) => numbers.add(x));
    else if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object') Object.values(n).forEach(walk);
  };
  for (const r of ruleset.rules) [r.when, r.check].forEach(walk);
  return { strings: [...strings].sort(), numbers: [...numbers].sort((a, b) => a - b) };
}

const pool = literals();
const dates = ['2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-06-01T00:00:00.000Z', 'not a date'];

/** A fast-check arbitrary of the values a JSON Schema admits (the keywords the observation schemas use). */
function arbitraryOf(node: SchemaNode, depth: number): fc.Arbitrary<unknown> {
  const s = node.schema;
  if (typeof s === 'boolean' || depth > 10) return fc.constant(null);
  const sub = (schema: unknown) => arbitraryOf({ schema: schema as SchemaNode['schema'], root: node.root }, depth + 1);
  const target = refTarget(node);
  if (target) return arbitraryOf(target, depth + 1);
  if (Object.hasOwn(s, 'const')) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (branches) return fc.oneof(...branches.map(sub));
  if (Array.isArray(s.allOf) && s.allOf.length) return sub(s.allOf[0]);
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  if (types.length === 0) types.push(s.properties ? 'object' : s.items ? 'array' : 'null');
  return fc.oneof(...types.map((t) => ofType(t, s, sub)));
}

function ofType(
  type: string,
  s: Record<string, unknown>,
  sub: (schema: unknown) => fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      if (Object.keys(props).length === 0 && s.additionalProperties && typeof s.additionalProperties === 'object')
        return fc.dictionary(fc.constantFrom(...pool.strings.slice(0, 200)), sub(s.additionalProperties), {
          maxKeys: 3,
        });
      const required = (Array.isArray(s.required) ? s.required : []) as string[];
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sub(v)])), {
        requiredKeys: required.filter((k) => Object.hasOwn(props, k)),
      });
    }
    case 'array':
      if (Array.isArray(s.prefixItems)) return fc.tuple(...(s.prefixItems as unknown[]).map(sub));
      return fc.array(s.items && typeof s.items === 'object' ? sub(s.items) : fc.constant(null), { maxLength: 3 });
    case 'string':
      return s.format === 'date-time'
        ? fc.constantFrom(...dates)
        : fc.oneof(fc.constantFrom(...pool.strings), fc.string({ maxLength: 6 }));
    case 'integer':
      return fc.oneof(fc.constantFrom(...pool.numbers.filter(Number.isInteger)), fc.integer({ min: -3, max: 70000 }));
    case 'number':
      return fc.oneof(fc.constantFrom(...pool.numbers), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    default:
      return fc.constant(null);
  }
}

const namespaces = [...ruleset.schemas.namespaces];
const documents: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.tuple(...namespaces.map(([, schema]) => arbitraryOf({ schema, root: schema }, 0))),
    fc.array(fc.constantFrom('ok', 'ok', 'ok', 'error', 'timeout'), {
      minLength: namespaces.length,
      maxLength: namespaces.length,
    }),
    fc.constantFrom(...dates.slice(0, 3)),
  )
  .map(([values, statuses, at]) => {
    const doc: Record<string, unknown> = { target: { domain: 'gen.test', observed_at: at }, probes: {} };
    namespaces.forEach(([name], i) => {
      (doc.probes as Record<string, unknown>)[name] = { status: statuses[i], ms: 1 };
      if (statuses[i] === 'ok') doc[name] = values[i];
    });
    return doc;
  });

describe('compiled rules against json-logic-js', () => {
  it('agree on every example of every rule of the catalogue', () => {
    let runs = 0;
    for (const rule of ruleset.rules)
      for (const ex of rule.examples) {
        compare(rule, ex.observations);
        runs += 1;
      }
    expect(runs).toBeGreaterThan(ruleset.rules.length * 2);
  });

  it('agree on documents generated from the observation schemas, for every rule', () => {
    const seen = new Map<Outcome, number>();
    fc.assert(
      fc.property(documents, (doc) => {
        for (const rule of ruleset.rules) {
          const o = compare(rule, doc);
          seen.set(o, (seen.get(o) ?? 0) + 1);
        }
      }),
      { numRuns: 40 },
    );
    // The documents reach every outcome, so the comparison is not all errors.
    expect([...seen.keys()].sort()).toEqual(['error', 'fail', 'not_applicable', 'pass']);
  });

  it('agree on the standard operations over arbitrary JSON operands, including what json-logic refuses', () => {
    const ops = ['==', '===', '!=', '!==', '>', '>=', '<', '<=', '!', '!!', '%', 'in', 'cat', 'substr', '+', '*', '-'];
    const more = ['/', 'min', 'max', 'merge', 'and', 'or', 'if', 'missing', 'missing_some', 'some', 'all', 'none'];
    const operand = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom({ var: 'a' }, { var: 'b.c' }, { var: ['z', 5] }, { var: '' }, { var: 'a.length' }),
    );
    const data = fc.record({ a: fc.jsonValue({ maxDepth: 2 }), b: fc.record({ c: fc.jsonValue({ maxDepth: 1 }) }) });
    const run = (f: () => unknown): unknown => {
      try {
        return { value: f() };
      } catch (err) {
        return { threw: (err as Error).constructor.name };
      }
    };
    fc.assert(
      fc.property(fc.constantFrom(...ops, ...more), fc.array(operand, { maxLength: 4 }), data, (op, args, d) => {
        const logic = { [op]: args };
        const want = run(() => applyReference(logic, d));
        const got = run(() => compileLogic(logic)(d));
        expect(got, JSON.stringify({ logic, d })).toEqual(want);
      }),
      { numRuns: 2000 },
    );
  });

  it('agree at the top of a rule, vars read through the evaluation plan, literal arguments prepared at load', () => {
    const ops = ['==', '!=', '===', '!==', '>', '>=', '<', '<=', 'in', 'and', 'or', '!', 'some', 'missing'];
    const engine = ['regex_test', 'semver_satisfies', 'contains', 'keys', 'length', 'present', 'days_between'];
    const variable = fc.constantFrom(
      ...['a', 'b', 'b.c', 'b.c.d', 'b.c.0', 'a.length', 'a.0', 'b.constructor', 'b.c.toString', 'z'].map((v) => ({
        var: v,
      })),
      { var: ['b.c', 5] },
      { var: ['z', 'fallback'] },
      { var: '' },
    );
    const literal = fc.oneof(
      fc.jsonValue({ maxDepth: 1 }),
      fc.constantFrom('', '^a', '[', 'x', 'i', '>=1.0.0', 'not a range', '2026-01-01T00:00:00Z', ['x', 1, null]),
    );
    const operand = fc.oneof(variable, literal, fc.constantFrom({ keys: { var: 'b' } }, { keys: { var: 'b.c' } }));
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom('x', '1.2.3', 'v2', 'ab', 'A1', '2026-03-01T00:00:00Z', { d: 1, x: 'x' }, ['x', 1]),
    );
    const data = fc.record({ a: value, b: fc.oneof(value, fc.record({ c: value })) });
    const run = (f: () => unknown): unknown => {
      try {
        return { value: f() };
      } catch (err) {
        return { threw: (err as Error).constructor.name };
      }
    };
    const lookup = (doc: unknown, p: string) => {
      const v = valueAt(doc, p.split('.'));
      return v !== null && typeof v === 'object' && !Object.hasOwn(doc as object, p.split('.')[0]!) ? null : v;
    };
    const anyCall = fc
      .tuple(fc.constantFrom(...ops, ...engine), fc.array(operand, { maxLength: 3 }))
      .map(([op, args]) => ({ [op]: args }));
    // The shapes prepared at load: an operand against a literal, a literal pattern or range, keys then contains.
    const prepared = fc.oneof(
      fc
        .tuple(fc.constantFrom('==', '!=', '===', '!==', '>', '>=', '<', '<=', 'in', 'contains'), operand, literal)
        .map(([op, a, b]) => ({ [op]: [a, b] })),
      fc
        .tuple(fc.constantFrom('^a', 'x$', '[', '^v?\\d', 'A'), operand, fc.option(fc.constantFrom('i', '', 'g', 'x')))
        .map(([p, v, f]) => ({ regex_test: f === null ? [p, v] : [p, v, f] })),
      fc
        .tuple(operand, fc.constantFrom('>=1.0.0', '^2', 'not a range', '1.x', ''))
        .map(([v, r]) => ({ semver_satisfies: [v, r] })),
      fc
        .tuple(variable, fc.constantFrom('c', 'd', 'x', 'toString', 'length', '0'))
        .map(([o, k]) => ({ contains: [{ keys: o }, k] })),
    );
    fc.assert(
      fc.property(fc.oneof(anyCall, prepared), data, (logic, d) => {
        const want = run(() => applyReference(logic, d));
        const paths: string[] = [];
        const check = compileRootLogic(logic, paths);
        const context = JSON.stringify({ logic, d });
        expect(
          run(() => check(rootInput(d, paths))),
          context,
        ).toEqual(want);
        // The same logic as one rule of a plan: vars come from the document's view, and so do observed values.
        const reads = readPaths({ check: logic });
        const rule = {
          id: 'x.y',
          version: 1,
          level: 'required',
          reads,
          compiled: { requires: [], paths, when: null, check },
        };
        const plan = planEvaluation([rule as unknown as LoadedRule]);
        const view = new PlannedDocument(plan, d);
        view.select(plan.rules[0]!);
        expect(
          run(() => check(view)),
          context,
        ).toEqual(want);
        expect(view.observed(plan.rules[0]!), context).toEqual(
          Object.fromEntries(reads.map((p) => [p, bounded(lookup(d, p))])),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('agree on whether a required path is there, through the plan', () => {
    const key = fc.constantFrom('a', 'b', 'length', 'constructor', '0');
    const doc = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    // The first segment names a probe's namespace: those are never names every object inherits.
    const path = fc
      .tuple(fc.constantFrom('a', 'b', '0'), fc.array(key, { maxLength: 2 }))
      .map(([ns, k]) => [ns, ...k].join('.'));
    fc.assert(
      fc.property(doc, fc.uniqueArray(path, { maxLength: 4 }), (d, requires) => {
        const rule = { ...ruleset.rules[0]!, requires, reads: [], compiled: { ...ruleset.rules[0]!.compiled } };
        rule.compiled.requires = requires.map((p) => ({
          path: p,
          namespace: p.split('.')[0]!,
          segments: p.split('.'),
        }));
        rule.compiled.paths = [];
        const plan = planEvaluation([rule]);
        const absent = requires.find((p) => lookup(d, p) === MISSING);
        expect(new PlannedDocument(plan, d).unevaluable(plan.rules[0]!)).toBe(
          absent === undefined ? null : `missing observation ${absent}`,
        );
      }),
      { numRuns: 2000 },
    );
  });
});
