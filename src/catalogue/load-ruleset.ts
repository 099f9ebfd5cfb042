// Loading the ruleset from its files: every rules/**/*.yaml file, checked against the rule schema and against the
// observation schemas, or refused with the file and the reason. A ruleset that loads is safe to evaluate.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { digestOf } from '../lib/canonical-json.ts';
import { lazyRequire } from '../lib/lazy-require.ts';
import { REPO_ROOT } from '../lib/paths.ts';
import { analyseLogic, type LogicProblems } from '../engine/logic-analysis.ts';
import { ObservationSchemas, formatAjvErrors } from './observation-schemas.ts';
import { readPaths } from '../engine/observed.ts';
import { compileRule, underRequires } from '../engine/compile.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { LoadedRule, Rule } from '../engine/types.ts';
import { RulesetError, type RulesetProblem } from './ruleset-error.ts';
import { expand, readPreconditions, type Precondition } from './preconditions.ts';

/** A ruleset read from its files, with the observation schemas compiled for checking. */
export interface CheckedRuleset extends Ruleset {
  schemas: ObservationSchemas;
  preconditions: {
    /** rules/preconditions.yaml, in its order. */
    declared: ReadonlyMap<string, Precondition>;
    /** Rule id -> its `when` as its file writes it, for the rules that name a precondition. */
    written: ReadonlyMap<string, unknown>;
  };
}

export { RulesetError, type RulesetProblem } from './ruleset-error.ts';

export interface LoadOptions {
  rulesDir?: string;
  /** Where the observation schemas are; the rule schema always comes from the repository's schemas/. */
  observationSchemasDir?: string;
}

const SCHEMAS_DIR = path.join(REPO_ROOT, 'schemas');

// Only a full load (`dvs rules check`, the tests, a run without a current artifact) parses YAML and compiles the
// rule schema; a run that loads the artifact imports none of these.
const yaml = lazyRequire<typeof import('yaml')>('yaml');
const ajv = lazyRequire<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
const semver = lazyRequire<typeof import('semver')>('semver');

/** The file of named preconditions, under rules/. */
export const PRECONDITIONS_FILE = 'preconditions.yaml';

/** Files under rules/ that are not rule files. */
const NOT_RULES = new Set(['ruleset.yaml', PRECONDITIONS_FILE]);

/** The rule files under `dir`, sorted; each directory walked is added to `visited` when given. */
export function listYaml(dir: string, visited?: string[]): string[] {
  visited?.push(dir);
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...listYaml(full, visited));
    else if (entry.endsWith('.yaml') && !NOT_RULES.has(entry)) out.push(full);
  }
  return out;
}

function parseYaml(text: string): unknown {
  const doc = yaml().parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const issue = doc.errors[0] ?? doc.warnings[0];
  if (issue) throw new Error(`YAML: ${issue.message.split('\n')[0]}`);
  return doc.toJS();
}

const shapeValidators = new Map<string, ValidateFunction>();

/** Checks a value against a schema of schemas/ (`rule.schema.json`): an error text, or null. */
function validateShape(schemaFile: string, value: unknown): string | null {
  let validate = shapeValidators.get(schemaFile);
  if (!validate) {
    const schema = JSON.parse(readFileSync(path.join(SCHEMAS_DIR, schemaFile), 'utf8')) as Record<string, unknown>;
    const { $id: _id, ...rest } = schema;
    validate = new (ajv().Ajv2020)({ allErrors: true, strict: true }).compile(rest);
    shapeValidators.set(schemaFile, validate);
  }
  return validate(value) ? null : formatAjvErrors(validate.errors);
}

/** What an analysis of a piece of logic finds wrong on its own: unknown operations, paths no schema defines. */
function logicProblems(part: string, a: LogicProblems): string[] {
  return [
    ...[...new Set(a.unknownOperations)].map((op) => `${part} uses unknown operation "${op}"`),
    ...[...new Set(a.undefinedPaths)].map((p) => `${part} reads "${p}", which no observation schema defines`),
  ];
}

/** What defines a rule's meaning: a change here needs a version bump (prose and examples do not). */
export function semanticDigest(rule: Rule): string {
  const { id, category, tier, level, requires, when, check } = rule;
  return digestOf({ id, category, tier, level, requires, when: when ?? null, check });
}

/** All problems of one parsed rule, beyond its schema shape. */
function ruleProblems(rule: Rule, relFile: string, schemas: ObservationSchemas): string[] {
  const problems: string[] = [];
  const expectedId = relFile
    .replace(/\.yaml$/, '')
    .split(path.sep)
    .join('.');
  if (rule.id !== expectedId) problems.push(`id "${rule.id}" does not match its path (expected "${expectedId}")`);
  if (rule.id.split('.')[0] !== rule.category)
    problems.push(`id "${rule.id}" must start with its category "${rule.category}."`);
  for (const r of rule.requires)
    if (schemas.resolve(r).length === 0) problems.push(`requires "${r}", which no observation schema defines`);
  for (const [part, logic] of [
    ['when', rule.when],
    ['check', rule.check],
  ] as const) {
    if (logic === undefined) continue;
    const a = analyseLogic(logic, schemas);
    problems.push(...logicProblems(part, a));
    for (const p of new Set(a.rootPaths)) {
      if (!underRequires(p, rule.requires)) problems.push(`${part} reads "${p}", which is not under its requires`);
    }
  }
  const polarity = new Set(rule.examples.filter((e) => !e.todo).map((e) => e.expect));
  if (!polarity.has('pass') || !polarity.has('fail'))
    problems.push('needs at least one passing and one failing example');
  const names = new Set<string>();
  for (const ex of rule.examples) {
    if (names.has(ex.name)) problems.push(`example name "${ex.name}" is used twice`);
    names.add(ex.name);
    const bad = schemas.validateDocument(ex.observations, 'partial');
    if (bad) problems.push(`example "${ex.name}": observations do not match the schemas: ${bad}`);
  }
  if (rule.level !== 'required' && rule.hollow_pass_reason)
    problems.push('hollow_pass_reason is only for required rules');
  return problems;
}

/** The named preconditions of rules/preconditions.yaml; what is wrong with them goes to `problems`. */
function loadPreconditions(
  rulesDir: string,
  schemas: ObservationSchemas,
  problems: RulesetProblem[],
  rel: (f: string) => string,
): Map<string, Precondition> {
  const file = path.join(rulesDir, PRECONDITIONS_FILE);
  try {
    const read = readPreconditions(
      file,
      parseYaml,
      (value) => validateShape('preconditions.schema.json', value),
      (logic) => logicProblems('logic', analyseLogic(logic, schemas)),
    );
    problems.push(...read.problems.map((message) => ({ file: rel(file), message })));
    return read.declared;
  } catch (err) {
    problems.push({ file: rel(file), message: (err as Error).message });
    return new Map();
  }
}

export function loadRuleset(opts: LoadOptions = {}): CheckedRuleset {
  const rulesDir = opts.rulesDir ?? path.join(REPO_ROOT, 'rules');
  const observationsDir = opts.observationSchemasDir ?? path.join(SCHEMAS_DIR, 'observations');
  const problems: RulesetProblem[] = [];
  const rel = (f: string) => path.relative(path.dirname(rulesDir), f);

  let version = '';
  const rulesetFile = path.join(rulesDir, 'ruleset.yaml');
  try {
    const meta = parseYaml(readFileSync(rulesetFile, 'utf8')) as { version?: unknown };
    if (typeof meta?.version !== 'string' || !semver().valid(meta.version))
      throw new Error('version must be a semver string');
    version = meta.version;
  } catch (err) {
    problems.push({ file: rel(rulesetFile), message: (err as Error).message });
  }

  let schemas: ObservationSchemas;
  try {
    schemas = ObservationSchemas.fromDirectory(observationsDir).compileAll();
  } catch (err) {
    throw new RulesetError([{ file: 'schemas/observations', message: (err as Error).message }]);
  }

  const declared = loadPreconditions(rulesDir, schemas, problems, rel);

  const rules: LoadedRule[] = [];
  const written = new Map<string, unknown>();
  const seen = new Map<string, string>();
  for (const file of listYaml(rulesDir)) {
    const relFile = path.relative(rulesDir, file);
    let raw: unknown;
    try {
      raw = parseYaml(readFileSync(file, 'utf8'));
    } catch (err) {
      problems.push({ file: rel(file), message: (err as Error).message });
      continue;
    }
    const shape = validateShape('rule.schema.json', raw);
    if (shape) {
      problems.push({ file: rel(file), message: `does not match schemas/rule.schema.json: ${shape}` });
      continue;
    }
    const { when: asWritten } = raw as Rule;
    const when = asWritten === undefined ? null : expand(asWritten, declared);
    if (when?.unknown.length) {
      problems.push(
        ...when.unknown.map((name) => ({
          file: rel(file),
          message: `when names the precondition "${name}", which rules/${PRECONDITIONS_FILE} does not declare`,
        })),
      );
      continue;
    }
    if (when?.named.length) written.set((raw as Rule).id, asWritten);
    const rule = when ? { ...(raw as Rule), when: when.logic } : (raw as Rule);
    const own = ruleProblems(rule, relFile, schemas);
    const dup = seen.get(rule.id);
    if (dup) own.push(`duplicate id "${rule.id}" (also in ${dup})`);
    seen.set(rule.id, rel(file));
    if (own.length) {
      problems.push(...own.map((message) => ({ file: rel(file), message })));
      continue;
    }
    rules.push({
      ...rule,
      file: rel(file),
      digest: semanticDigest(rule),
      reads: readPaths(rule),
      compiled: compileRule(rule),
    });
  }
  if (problems.length) throw new RulesetError(problems);

  rules.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const digest = digestOf({ version, rules: rules.map((r) => ({ id: r.id, version: r.version, digest: r.digest })) });
  return {
    version,
    digest,
    rules,
    byId: new Map(rules.map((r) => [r.id, r])),
    schemas,
    preconditions: { declared, written },
  };
}
