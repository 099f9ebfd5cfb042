// Plain words for a failed or errored result: what the rule found (its observed values) and what it needs (its
// check, written out from the json-logic). Derived from the rule file and the result only, so every rule gets
// the same treatment and no rule has hand-written wording to drift from its logic.
import type { RuleResult } from './types.ts';

/** Characters kept of one printed line (found or needs). */
const MAX_LINE = 240;
/** Characters kept of one printed value. */
const MAX_VALUE = 80;

const COMPARISONS: Record<string, string> = {
  '==': '==',
  '===': '==',
  '!=': '!=',
  '!==': '!=',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
};

const LIST_WORDS: Record<string, string> = {
  some: 'some item of',
  all: 'every item of',
  none: 'no item of',
  filter: 'the items of',
  map: 'each item of',
};

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function printValue(value: unknown): string {
  return cut(typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null), MAX_VALUE);
}

/** Whether an expression prints with words or symbols between its parts (and so needs parentheses inside another). */
function infix(node: unknown): boolean {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return false;
  const op = Object.keys(node)[0] ?? '';
  return op in COMPARISONS || op in LIST_WORDS || ['and', 'or', '!', 'in', 'if', '?:'].includes(op);
}

function args(node: unknown): unknown[] {
  return Array.isArray(node) ? node : [node];
}

/** json-logic as an expression a person reads: vars by path, operators in between, other operations as calls. */
export function renderLogic(node: unknown): string {
  if (Array.isArray(node)) return `[${node.map(renderLogic).join(', ')}]`;
  if (node === null || typeof node !== 'object') return printValue(node);
  const keys = Object.keys(node);
  if (keys.length !== 1) return printValue(node);
  const op = keys[0]!;
  const a = args((node as Record<string, unknown>)[op]);
  const sub = (n: unknown) => (infix(n) ? `(${renderLogic(n)})` : renderLogic(n));
  if (op === 'var') {
    const path = a[0];
    if (path === '' || path === undefined || path === null) return 'the item';
    return typeof path === 'string' || typeof path === 'number' ? String(path) : renderLogic(path);
  }
  const symbol = COMPARISONS[op];
  if (symbol) return a.map(sub).join(` ${symbol} `);
  if (op === 'and' || op === 'or') return a.map(sub).join(` ${op} `);
  if (op === '!') return `not ${sub(a[0])}`;
  if (op === '!!') return renderLogic(a[0]);
  if (op === 'in') return `${sub(a[0])} in ${sub(a[1])}`;
  if (op === 'if' || op === '?:') {
    const [cond, then, ...rest] = a;
    const otherwise = rest.length ? ` else ${rest.length === 1 ? sub(rest[0]) : renderLogic({ if: rest })}` : '';
    return `if ${sub(cond)} then ${sub(then)}${otherwise}`;
  }
  const list = LIST_WORDS[op];
  if (list) return `${list} ${sub(a[0])}: ${renderLogic(a[1])}`;
  return `${op}(${a.map(renderLogic).join(', ')})`;
}

/** "path=value, path=value": what the rule read. */
export function foundText(observed: Record<string, unknown>): string {
  const parts = Object.entries(observed).map(([path, value]) => `${path}=${printValue(value)}`);
  return cut(parts.length ? parts.join(', ') : 'nothing (the rule reads no value)', MAX_LINE);
}

/** What the rule needs, from its check. */
export function needsText(check: unknown): string {
  return cut(renderLogic(check), MAX_LINE);
}

/** The lines a summary prints under a failed or errored result. */
export function explainResult(result: RuleResult, check: unknown): string[] {
  const lines = [`found: ${foundText(result.observed)}`];
  if (result.outcome === 'fail') lines.push(`needs: ${needsText(check)}`);
  return lines;
}
