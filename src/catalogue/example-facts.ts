// Facts a rule's examples carry that its logic never reads. An example is the rule's evidence for a reader: a fact
// it does not read suggests a judgement the rule does not make, and hides what the outcome actually turns on.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { evaluateRule } from '../engine/evaluate.ts';
import { analyseLogic } from '../engine/logic-analysis.ts';
import type { LoadedRule } from '../engine/types.ts';
import { formatRule } from './rule-format.ts';

type Segment = string | number;

interface Leaf {
  /** Where the value sits, list positions as numbers. */
  at: Segment[];
  /** The same path with every list position written `[]`, as the logic analysis writes item reads. */
  shape: string[];
}

function leaves(value: unknown, at: Segment[] = [], shape: string[] = []): Leaf[] {
  if (Array.isArray(value))
    return value.length === 0
      ? [{ at, shape }]
      : value.flatMap((item, i) => leaves(item, [...at, i], [...shape, '[]']));
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? [{ at, shape }] : entries.flatMap(([k, v]) => leaves(v, [...at, k], [...shape, k]));
  }
  return [{ at, shape }];
}

const segmentsOf = (readPath: string) =>
  readPath
    .replaceAll('[]', '.[]')
    .split('.')
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? '[]' : s));

const startsWith = (long: readonly string[], short: readonly string[]) => short.every((s, i) => long[i] === s);

/** What a rule's logic reads, as path segments; a shallow list read covers the list and its plain items. */
function readsOf(rule: LoadedRule): { segments: string[]; deep: boolean }[] {
  return [rule.when, rule.check].flatMap((logic) =>
    logic === undefined ? [] : analyseLogic(logic).reads.map((r) => ({ segments: segmentsOf(r.path), deep: r.deep })),
  );
}

function isRead(leaf: string[], reads: ReturnType<typeof readsOf>): boolean {
  return reads.some(
    (r) =>
      startsWith(r.segments, leaf) ||
      (r.deep && startsWith(leaf, r.segments)) ||
      (leaf.length === r.segments.length + 1 && leaf.at(-1) === '[]' && startsWith(leaf, r.segments)),
  );
}

/** The unread leaves of one example's facts. */
function unreadLeaves(rule: LoadedRule, observations: unknown): Leaf[] {
  const reads = readsOf(rule);
  return leaves(observations).filter((l) => l.shape.length > 0 && !isRead(l.shape, reads));
}

export interface UnreadFacts {
  example: string;
  /** Fact paths as the analysis writes them (`list[].field`), each once. */
  paths: string[];
}

export function unreadExampleFacts(rule: LoadedRule): UnreadFacts[] {
  return rule.examples.flatMap((ex) => {
    const paths = [
      ...new Set(unreadLeaves(rule, ex.observations).map((l) => l.shape.join('.').replaceAll('.[]', '[]'))),
    ];
    return paths.length ? [{ example: ex.name, paths }] : [];
  });
}

function without(value: unknown, at: Segment[]): void {
  let parent = value as Record<Segment, unknown>;
  for (const s of at.slice(0, -1)) parent = parent[s] as Record<Segment, unknown>;
  const last = at.at(-1)!;
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
}

/** The facts with every unread leaf taken out, and then the containers that left empty and unread. */
function trimmed(rule: LoadedRule, observations: unknown): unknown {
  const out = structuredClone(observations);
  for (let unread = unreadLeaves(rule, out); unread.length; unread = unreadLeaves(rule, out)) {
    // Last first, so that taking an item out of a list does not move the ones still to be taken.
    for (const leaf of unread.reverse()) without(out, leaf.at);
  }
  return out;
}

/**
 * Rewrites the rule's file with its examples' unread facts taken out, where that leaves every example's outcome as
 * it was (a fact can be unread and still needed: the evaluator refuses a rule whose `requires` path is missing).
 * Returns whether the file changed.
 */
export function dropUnreadFacts(rule: LoadedRule, rulesDir: string): boolean {
  const file = path.join(path.dirname(rulesDir), rule.file);
  const data = parseDocument(readFileSync(file, 'utf8')).toJS() as { examples?: { observations: unknown }[] };
  let changed = false;
  rule.examples.forEach((ex, i) => {
    const unread = unreadLeaves(rule, ex.observations);
    if (!unread.length || !data.examples?.[i]) return;
    const facts = trimmed(rule, ex.observations) as Record<string, unknown>;
    if (evaluateRule(rule, facts).outcome !== evaluateRule(rule, ex.observations).outcome) return;
    data.examples[i].observations = facts;
    changed = true;
  });
  if (changed) writeFileSync(file, formatRule(data));
  return changed;
}
