// `dvs rules new`: a rule file with every field present, so an author fills in blanks instead of recalling the
// schema. Each blank says FILL-IN; `dvs rules check` refuses a file that still holds one.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../lib/paths.ts';
import { UNFINISHED } from '../catalogue/catalogue-problems.ts';
import { UsageError } from './io.ts';

export interface TemplateOptions {
  level?: string;
  tier?: string;
  requires?: string[];
}

interface RuleSchema {
  properties: {
    id: { pattern: string };
    category: { enum: string[] };
    level: { enum: string[] };
    tier: { enum: string[] };
  };
}

const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas', 'rule.schema.json'), 'utf8')) as RuleSchema;

function oneOf(name: string, value: string | undefined, allowed: string[], fallback: string): string {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value;
}

/** `{a: {b: value}}` for the dotted path `a.b`, in YAML flow style. */
function nested(dotted: string, value: string): string {
  return dotted.split('.').reduceRight((inner, key) => `{${key}: ${inner}}`, value);
}

export function newRuleFile(rulesDir: string, id: string | undefined, opts: TemplateOptions): string {
  const { properties: p } = schema;
  if (!id || !new RegExp(p.id.pattern).test(id)) {
    throw new UsageError(`dvs rules new <id>: the id is dotted lower-case words, e.g. headers.hsts.preload_ready`);
  }
  const [category = ''] = id.split('.');
  if (!p.category.enum.includes(category)) {
    throw new UsageError(`the id must start with its category, one of: ${p.category.enum.join(', ')}`);
  }
  const file = path.join(rulesDir, ...id.split('.')) + '.yaml';
  if (existsSync(file)) throw new UsageError(`${path.relative(process.cwd(), file)} exists already`);

  const level = oneOf('level', opts.level, p.level.enum, 'recommended');
  const tier = oneOf('tier', opts.tier, p.tier.enum, 'full');
  const fact = opts.requires?.[0] ?? `${category}.${UNFINISHED}`;
  const requires = opts.requires?.length ? opts.requires : [fact];
  const text = [
    `# Replace every ${UNFINISHED}, then run \`dvs rules check\`; docs/rule-authoring.md explains each field.`,
    `id: ${id}`,
    'version: 1',
    `title: ${UNFINISHED} the passing condition, stated as a fact`,
    `category: ${category}`,
    `tier: ${tier}`,
    `level: ${level}`,
    `requires: [${requires.join(', ')}]`,
    `when: {"!=": [{var: ${fact}}, null]}`,
    `check: {"==": [{var: ${fact}}, true]}`,
    `rationale: ${UNFINISHED} why an agent or its operator cares.`,
    `remediation: ${UNFINISHED} what to change, in the imperative.`,
    `references: [${UNFINISHED} the specification's address]`,
    'examples:',
    `  - name: ${UNFINISHED} a site that passes`,
    `    observations: ${nested(fact, 'true')}`,
    '    expect: pass',
    `  - name: ${UNFINISHED} a site that fails`,
    `    observations: ${nested(fact, 'false')}`,
    '    expect: fail',
    '',
  ].join('\n');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
