// The checks `dvs rules check` and the test suite run over a loaded ruleset: every example, the weak-rule
// gate (hollow and yes-man documents) and the version lock.
import { readFileSync, writeFileSync } from 'node:fs';
import { lazyRequire } from '../lib/lazy-require.ts';
import { evaluateRule } from '../engine/evaluate.ts';
import { refTarget, type SchemaNode } from '../engine/schema-paths.ts';
import { RulesetError } from './ruleset-error.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { LoadedRule, Outcome } from '../engine/types.ts';

const semverModule = lazyRequire<typeof import('semver')>('semver');

export interface ExampleRun {
  rule: string;
  example: string;
  expected: Outcome;
  got: Outcome;
  todo: boolean;
  reason?: string;
}

export function runExamples(ruleset: Ruleset): ExampleRun[] {
  return ruleset.rules.flatMap((rule) =>
    rule.examples.map((ex) => {
      const r = evaluateRule(rule, ex.observations);
      return {
        rule: rule.id,
        example: ex.name,
        expected: ex.expect,
        got: r.outcome,
        todo: ex.todo === true,
        ...(r.reason ? { reason: r.reason } : {}),
      };
    }),
  );
}

type Fill = 'null' | 'empty' | 'yes';
type Schema = Record<string, unknown>;

/**
 * One schema that says what a value of the node looks like: its `$ref` target, its `allOf` branches and the
 * first non-null `oneOf`/`anyOf` branch merged under its own keywords (properties are united).
 */
function flatten(node: SchemaNode, depth: number): Schema | null {
  if (typeof node.schema === 'boolean' || depth > 12) return null;
  const { $ref: _ref, allOf, anyOf, oneOf, ...own } = node.schema;
  const parts: (Schema | null)[] = [];
  const target = refTarget(node);
  if (target) parts.push(flatten(target, depth + 1));
  for (const b of (allOf as Schema[] | undefined) ?? []) parts.push(flatten({ schema: b, root: node.root }, depth + 1));
  for (const branches of [oneOf, anyOf] as (Schema[] | undefined)[]) {
    const pick = branches?.find((b) => b.type !== 'null') ?? branches?.[0];
    if (pick) parts.push(flatten({ schema: pick, root: node.root }, depth + 1));
  }
  parts.push(own);
  return parts.reduce<Schema>((merged, part) => {
    if (!part) return merged;
    const properties =
      merged.properties || part.properties
        ? { ...(merged.properties as Schema), ...(part.properties as Schema) }
        : undefined;
    return { ...merged, ...part, ...(properties ? { properties } : {}) };
  }, {});
}

/** A value for a schema: `null` and `empty` build hollow evidence, `yes` builds a document that says yes to everything. */
function fillValue(node: SchemaNode, fill: Fill, key: string, depth: number): unknown {
  const s = flatten(node, depth);
  if (!s) return null;
  if (Object.hasOwn(s, 'const')) return fill === 'yes' ? s.const : null;
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
  const type = types.find((t) => t !== 'null') ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  if (Array.isArray(s.enum)) return fill === 'yes' ? ((s.enum as unknown[]).find((v) => v !== null) ?? null) : null;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((s.properties as Record<string, Schema>) ?? {})) {
        out[k] = fillValue({ schema: v, root: node.root }, fill, k, depth + 1);
      }
      if (fill === 'yes' && !s.properties && s.additionalProperties && typeof s.additionalProperties === 'object') {
        out.example = fillValue(
          { schema: s.additionalProperties as Schema, root: node.root },
          fill,
          'example',
          depth + 1,
        );
      }
      return out;
    }
    case 'array':
      return fill === 'yes' && s.items && typeof s.items === 'object'
        ? [fillValue({ schema: s.items as Schema, root: node.root }, fill, key, depth + 1)]
        : [];
    case 'boolean':
      return fill === 'yes' ? true : null;
    case 'integer':
    case 'number':
      if (fill === 'yes') return /status/.test(key) ? 200 : 1;
      return fill === 'empty' ? 0 : null;
    case 'string':
      if (fill === 'yes') return 'yes';
      return fill === 'empty' ? '' : null;
    default:
      return null;
  }
}

/** An observations document in which every probe ran and found nothing (or everything, for `yes`). */
export function syntheticDocument(ruleset: Ruleset, fill: Fill): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    target: { domain: 'hollow.example', observed_at: '2026-01-01T00:00:00Z' },
    probes: {},
  };
  for (const [name, schema] of ruleset.schemas.namespaces) {
    (doc.probes as Record<string, unknown>)[name] = { status: 'ok', ms: 0 };
    doc[name] = fillValue({ schema, root: schema }, fill, name, 0);
  }
  return doc;
}

export interface WeakRuleReport {
  /** Required rules that pass on hollow evidence without a stated reason: refused. */
  refused: string[];
  /** Required rules that pass on hollow evidence with a stated reason. */
  excused: string[];
  /** Rules that pass on the yes-man document: listed for review. */
  yesMan: string[];
}

export function weakRuleGate(ruleset: Ruleset): WeakRuleReport {
  const hollow = [syntheticDocument(ruleset, 'null'), syntheticDocument(ruleset, 'empty')];
  const yes = syntheticDocument(ruleset, 'yes');
  const report: WeakRuleReport = { refused: [], excused: [], yesMan: [] };
  for (const rule of ruleset.rules) {
    if (rule.level === 'required' && hollow.some((doc) => evaluateRule(rule, doc).outcome === 'pass')) {
      (rule.hollow_pass_reason ? report.excused : report.refused).push(rule.id);
    }
    if (evaluateRule(rule, yes).outcome === 'pass') report.yesMan.push(rule.id);
  }
  return report;
}

export interface RulesetLock {
  version: string;
  rules: Record<string, { version: number; digest: string }>;
}

export function lockOf(ruleset: Ruleset): RulesetLock {
  return {
    version: ruleset.version,
    rules: Object.fromEntries(ruleset.rules.map((r: LoadedRule) => [r.id, { version: r.version, digest: r.digest }])),
  };
}

/** Problems of the ruleset against its lock: a meaning changed without a bump, or rules changed under the same ruleset version. */
export function lockProblems(ruleset: Ruleset, lock: RulesetLock): string[] {
  const problems: string[] = [];
  let changed = false;
  for (const rule of ruleset.rules) {
    const locked = lock.rules[rule.id];
    if (!locked) {
      changed = true;
      continue;
    }
    if (locked.digest !== rule.digest && locked.version === rule.version) {
      problems.push(`${rule.file}: its meaning changed (digest) but its version is still ${rule.version}; bump it`);
    }
    // A lower version would name a meaning some earlier report already used under that number.
    if (rule.version < locked.version)
      problems.push(`${rule.file}: its version went back from ${locked.version} to ${rule.version}`);
    if (locked.digest !== rule.digest || locked.version !== rule.version) changed = true;
  }
  if (Object.keys(lock.rules).some((id) => !ruleset.byId.has(id))) changed = true;
  const semver = semverModule();
  if (semver.valid(lock.version) && semver.lt(ruleset.version, lock.version)) {
    problems.push(`rules/ruleset.yaml: the ruleset version went back from ${lock.version} to ${ruleset.version}`);
  }
  if (changed && lock.version === ruleset.version) {
    problems.push(
      `rules/ruleset.yaml: rules were added, removed or changed since ${lock.version}; bump the ruleset version and run \`dvs rules lock\``,
    );
  } else if (changed) {
    problems.push(`rules/ruleset.lock.json is stale for ruleset ${ruleset.version}; run \`dvs rules lock\``);
  } else if (lock.version !== ruleset.version) {
    problems.push(
      `rules/ruleset.lock.json records version ${lock.version} but rules/ruleset.yaml says ${ruleset.version}; run \`dvs rules lock\``,
    );
  }
  return problems;
}

function isLock(value: unknown): value is RulesetLock {
  const v = value as Partial<RulesetLock> | null;
  return (
    typeof v?.version === 'string' &&
    typeof v.rules === 'object' &&
    v.rules !== null &&
    Object.values(v.rules).every((r) => typeof r?.version === 'number' && typeof r.digest === 'string')
  );
}

/** The lock file, or null when there is none; a lock that does not parse is a ruleset problem, not a crash. */
export function readLock(file: string): RulesetLock | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let lock: unknown;
  try {
    lock = JSON.parse(text);
  } catch (err) {
    throw new RulesetError([{ file, message: `not JSON: ${(err as Error).message}` }]);
  }
  if (!isLock(lock))
    throw new RulesetError([
      { file, message: 'not a ruleset lock (needs version and rules: {id: {version, digest}})' },
    ]);
  return lock;
}

export function writeLock(file: string, ruleset: Ruleset): void {
  writeFileSync(file, JSON.stringify(lockOf(ruleset), null, 2) + '\n');
}
