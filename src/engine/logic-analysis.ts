// Static analysis of a rule's json-logic: which operations it uses and which observation paths it reads,
// with the scoping json-logic gives list operations (inside `some`/`all`/`none`/`filter`/`map` a `var` is
// relative to the list item; inside `reduce`, to `current` and `accumulator`).
import { KNOWN_OPERATIONS } from './operations.ts';
import type { ObservationValidation } from './ruleset.ts';
import { itemsOf, resolveFrom, type SchemaNode } from './schema-paths.ts';

/** Where a var lives: the document root, the items of a list expression, or a reduce body over such items. */
type Scope = { kind: 'root' } | { kind: 'item' | 'reduce'; nodes: SchemaNode[]; of: string };

export interface LogicProblems {
  unknownOperations: string[];
  /** Root paths read by the logic (for the `requires` check). */
  rootPaths: string[];
  /** Paths no observation schema defines, as written (item paths prefixed with their list). */
  undefinedPaths: string[];
  /**
   * Every path the logic reads, items of a list written `list[].field`. A deep read takes the whole value
   * under the path; a list that only feeds some/all/none/filter/map is read shallowly: its items' fields
   * count only where the inner logic reads them.
   */
  reads: { path: string; deep: boolean }[];
}

const LIST_OPS = new Set(['some', 'all', 'none', 'filter', 'map']);

function varPath(arg: unknown): string | null {
  const first: unknown = Array.isArray(arg) ? arg[0] : arg;
  if (typeof first === 'string') return first;
  if (typeof first === 'number') return String(first);
  if (first === undefined || first === null) return '';
  return null;
}

/**
 * The operations and paths of a piece of logic. Without schemas it still lists the operations and the root paths
 * (what the evaluator needs at run time); with them it also finds paths no schema defines.
 */
export function analyseLogic(logic: unknown, schemas?: Pick<ObservationValidation, 'resolve'>): LogicProblems {
  const out: LogicProblems = { unknownOperations: [], rootPaths: [], undefinedPaths: [], reads: [] };

  /** Returns the schema nodes the expression evaluates to, when it can tell (for list operations). */
  const walk = (node: unknown, scope: Scope): SchemaNode[] | null => {
    if (Array.isArray(node)) {
      node.forEach((n) => walk(n, scope));
      return null;
    }
    if (node === null || typeof node !== 'object') return null;
    const keys = Object.keys(node);
    if (keys.length !== 1) return null; // a plain object literal is data, not logic
    const op = keys[0]!;
    const args = (node as Record<string, unknown>)[op];
    if (!KNOWN_OPERATIONS.has(op)) {
      out.unknownOperations.push(op);
      return null;
    }
    const list: unknown[] = Array.isArray(args) ? args : [args];
    if (op === 'var') {
      const nodes = readVar(args, scope);
      // json-logic evaluates a var's arguments too: a default (or a computed path) may read the document.
      list.forEach((n) => walk(n, scope));
      return nodes;
    }
    if (op === 'missing' || op === 'missing_some') {
      // Their string arguments are paths read like vars; computed arguments are walked as logic.
      const named = op === 'missing_some' ? list[1] : list;
      for (const n of Array.isArray(named) ? named : [named]) {
        if (typeof n === 'string') readVar(n, scope);
        else walk(n, scope);
      }
      if (op === 'missing_some') walk(list[0], scope);
      return null;
    }
    if (LIST_OPS.has(op) || op === 'reduce') {
      const { nodes, inner } = itemScope(op, list[0], scope);
      walk(list[1], inner);
      list.slice(2).forEach((n) => walk(n, scope));
      return op === 'filter' ? nodes : null;
    }
    list.forEach((n) => walk(n, scope));
    return null;
  };

  /** A list operation's inner scope. The list feeding it is read shallowly: the inner logic says which fields count. */
  const itemScope = (op: string, source: unknown, scope: Scope): { nodes: SchemaNode[] | null; inner: Scope } => {
    const first = out.reads.length;
    const nodes = walk(source, scope);
    if (isVar(source) && out.reads.length === first + 1) out.reads[first]!.deep = false;
    const of = scope.kind === 'root' ? describe(source) : `${scope.of}[].${describe(source)}`;
    return { nodes, inner: { kind: op === 'reduce' ? 'reduce' : 'item', nodes: nodes ? itemsOf(nodes) : [], of } };
  };

  const readVar = (args: unknown, scope: Scope): SchemaNode[] | null => {
    const p = varPath(args);
    if (p === null) {
      out.undefinedPaths.push('a computed var path');
      return null;
    }
    if (scope.kind === 'root') {
      if (p === '') {
        out.undefinedPaths.push('var "" at the top level (the whole document)');
        return null;
      }
      out.rootPaths.push(p);
      out.reads.push({ path: p, deep: true });
      if (!schemas) return null;
      const nodes = schemas.resolve(p);
      if (nodes.length === 0) out.undefinedPaths.push(p);
      return nodes;
    }
    const itemPath = scope.kind === 'reduce' ? reducePath(p, out) : p;
    if (itemPath === null) return null;
    out.reads.push({ path: itemPath === '' ? `${scope.of}[]` : `${scope.of}[].${itemPath}`, deep: true });
    if (!schemas) return null;
    const nodes = resolveFrom(scope.nodes, itemPath);
    if (nodes.length === 0) out.undefinedPaths.push(`${scope.of}[].${itemPath}`);
    return nodes;
  };

  walk(logic, { kind: 'root' });
  return out;
}

/** The item path a var inside a reduce body reads: `current.*`, or null for the accumulator or a misplaced var. */
function reducePath(p: string, out: LogicProblems): string | null {
  if (p === 'accumulator' || p.startsWith('accumulator.')) return null;
  if (p !== 'current' && !p.startsWith('current.')) {
    out.undefinedPaths.push(`reduce var "${p}" (use current.* or accumulator)`);
    return null;
  }
  return p.replace(/^current\.?/, '');
}

const isVar = (expr: unknown): expr is { var: unknown } =>
  expr !== null && typeof expr === 'object' && !Array.isArray(expr) && 'var' in expr;

/** The list an expression iterates: a var's path, seen through filters of it. */
function describe(expr: unknown): string {
  if (isVar(expr)) return String(varPath(expr.var));
  const filter =
    expr && typeof expr === 'object' && !Array.isArray(expr) ? (expr as { filter?: unknown }).filter : null;
  if (Array.isArray(filter)) return describe(filter[0]);
  return '(list)';
}
