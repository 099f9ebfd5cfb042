// Named preconditions (rules/preconditions.yaml): a `when` clause many rules share, declared once with a one-line
// meaning and referred to by name, `{"precondition": "robots_published"}`, alone or inside a rule's own logic.
// Names are the catalogue's shorthand, not the engine's: loading replaces each reference by the logic it names, so
// what a rule means (its digest, the lock, what a run evaluates) is the same whether its file names the clause or
// writes it out.
import { existsSync, readFileSync } from 'node:fs';
import type { Preconditions } from '../lib/schema-types/preconditions.ts';

/** The operation a rule's logic names a precondition with. */
export const PRECONDITION = 'precondition';

export interface Precondition {
  name: string;
  meaning: string;
  /** The logic with every precondition it names replaced: what a rule naming it evaluates. */
  logic: unknown;
  /** The logic as the file writes it. */
  written: unknown;
  /** The preconditions it names, directly or through another. */
  names: string[];
}

/** The name a piece of logic refers to, when it is a reference (`{"precondition": name}`), else null. */
export function referenceOf(logic: unknown): string | null {
  if (logic === null || typeof logic !== 'object' || Array.isArray(logic)) return null;
  const keys = Object.keys(logic);
  if (keys.length !== 1 || keys[0] !== PRECONDITION) return null;
  const name = (logic as Record<string, unknown>)[PRECONDITION];
  return typeof name === 'string' ? name : JSON.stringify(name);
}

export interface Expansion {
  logic: unknown;
  /** The preconditions the logic names, directly or through another, each once, in order of first use. */
  named: string[];
  /** Names referred to that are not declared. */
  unknown: string[];
}

/** The logic with every reference replaced by the named logic. */
export function expand(logic: unknown, declared: ReadonlyMap<string, Precondition>): Expansion {
  const named: string[] = [];
  const unknown: string[] = [];
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const name = referenceOf(node);
    if (name !== null) {
      const found = declared.get(name);
      if (found) named.push(name, ...found.names);
      else unknown.push(name);
      return found ? found.logic : node;
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  const out = walk(logic);
  return { logic: out, named: [...new Set(named)], unknown: [...new Set(unknown)] };
}

/**
 * The preconditions a file declares, in its order (each may name those above it), and what is wrong with them.
 * `checkLogic` reports what is wrong with a precondition's expanded logic (unknown operations, undefined paths).
 * No file declares none.
 */
export function readPreconditions(
  file: string,
  parse: (text: string) => unknown,
  validateShape: (value: unknown) => string | null,
  checkLogic: (logic: unknown) => string[],
): { declared: Map<string, Precondition>; problems: string[] } {
  const declared = new Map<string, Precondition>();
  if (!existsSync(file)) return { declared, problems: [] };
  const raw = parse(readFileSync(file, 'utf8'));
  const shape = validateShape(raw);
  if (shape) return { declared, problems: [`does not match schemas/preconditions.schema.json: ${shape}`] };
  const problems: string[] = [];
  for (const [name, entry] of Object.entries((raw ?? {}) as Preconditions)) {
    if (!entry) continue;
    const { logic, named, unknown } = expand(entry.logic, declared);
    for (const u of unknown) problems.push(`${name} names "${u}", which is not declared above it`);
    if (!unknown.length) for (const p of checkLogic(logic)) problems.push(`${name}: ${p}`);
    declared.set(name, { name, meaning: entry.meaning, logic, written: entry.logic, names: named });
  }
  return { declared, problems };
}

/** The ids of the rules that name each precondition, directly or through another, from their `when` as written. */
export function namedBy(
  written: ReadonlyMap<string, unknown>,
  declared: ReadonlyMap<string, Precondition>,
): Map<string, string[]> {
  const users = new Map<string, string[]>();
  for (const [id, when] of written) {
    for (const name of expand(when, declared).named) users.set(name, [...(users.get(name) ?? []), id]);
  }
  return users;
}
