// One style for every rule file, so a diff shows what changed and nothing else: fields in the schema's order,
// prose as folded blocks, and any list or object written on one line when it fits in the width (json-logic reads
// best as JSON), opened into a block only when it does not.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Document, isMap, isScalar, isSeq, parseDocument, Scalar, type Node, type Pair } from 'yaml';
import { REPO_ROOT } from '../lib/paths.ts';
import { ASCII_WHITESPACE, trimEndOf } from '../lib/trim.ts';

const WIDTH = 120;
const INDENT = 2;
const PROSE = new Set(['rationale', 'remediation', 'hollow_pass_reason']);

let fieldOrder: string[] | null = null;

/** The rule schema's property order: the order fields are written in. */
function fields(): string[] {
  fieldOrder ??= Object.keys(
    (JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas', 'rule.schema.json'), 'utf8')) as { properties: object })
      .properties,
  );
  return fieldOrder;
}

/** A collection written on one line, as the flow style would write it. */
function oneLine(node: Node): string {
  const doc = new Document(node.toJSON());
  const flow = (n: unknown): void => {
    if (isMap(n) || isSeq(n)) {
      n.flow = true;
      for (const item of n.items) flow(isMap(n) ? (item as Pair).value : item);
    }
  };
  flow(doc.contents);
  return trimEndOf(doc.toString({ lineWidth: 0, flowCollectionPadding: false }), ASCII_WHITESPACE);
}

/** Decides flow or block for `node`, whose first character would sit at `column` and whose block entries at `indent`. */
function layout(node: unknown, column: number, indent: number): void {
  if (!isMap(node) && !isSeq(node)) return;
  if (node.items.length === 0 || column + oneLine(node).length <= WIDTH) {
    node.flow = true;
    return;
  }
  node.flow = false;
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
      // A block value goes on the next line, indented; a flow one stays after the key.
      layout(pair.value, indent + key.length + 2, indent + INDENT);
    }
  } else {
    for (const item of node.items) layout(item, indent + 2, indent + 2);
  }
}

/** Examples are always a block list of block entries (name, observations, expect each on its own line). */
function layoutExamples(examples: unknown[]): void {
  for (const example of examples) {
    if (!isMap(example)) continue;
    example.flow = false;
    for (const pair of example.items) layout(pair.value, 4 + String((pair.key as Scalar).value).length + 2, 4 + INDENT);
  }
}

/** The rule file text for a rule's data. */
export function formatRule(rule: Record<string, unknown>): string {
  const order = fields();
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  const ordered = Object.fromEntries(Object.entries(rule).sort(([a], [b]) => rank(a) - rank(b)));
  const doc = new Document(ordered);
  for (const pair of (doc.contents as { items: Pair<Scalar, unknown>[] }).items) {
    const key = String(pair.key.value);
    if (PROSE.has(key) && isScalar(pair.value)) pair.value.type = Scalar.BLOCK_FOLDED;
    else if (key === 'examples' && isSeq(pair.value)) layoutExamples(pair.value.items);
    else layout(pair.value, key.length + 2, INDENT);
  }
  return doc.toString({ lineWidth: WIDTH, minContentWidth: 40, flowCollectionPadding: false });
}

/** The text a rule file should have, or null when it already has it. */
export function restyled(text: string): string | null {
  const formatted = formatRule(parseDocument(text).toJS() as Record<string, unknown>);
  return formatted === text ? null : formatted;
}

/** Rule files (repository-relative, as `LoadedRule.file`) not in the house style; rewritten when `fix` is set. */
export function unstyledRuleFiles(files: readonly string[], rulesDir: string, fix: boolean): string[] {
  return files.filter((file) => {
    const full = path.join(path.dirname(rulesDir), file);
    const text = restyled(readFileSync(full, 'utf8'));
    if (text !== null && fix) writeFileSync(full, text);
    return text !== null;
  });
}
