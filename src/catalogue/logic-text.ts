// A rule's json-logic as a reader says it (`agents.a2a.card.published is true`, `length(x) >= 1 and ...`),
// for docs/rules.md: the rule file keeps the exact logic, the catalogue shows what it means.
// Inside some/all/none/filter/map, `var` reads the list's item, written `item` (`item.name` for a member).

import { PRECONDITION } from './preconditions.ts';

/** Binding strength, loosest first: a child that binds more loosely than its place is parenthesised. */
const Binds = { If: 0, Or: 1, And: 2, Not: 3, Compare: 4, Sum: 5, Product: 6, Atom: 7 } as const;
const COMPARISONS = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=', 'in']);
const ARITHMETIC: Record<string, number> = {
  '+': Binds.Sum,
  '-': Binds.Sum,
  '*': Binds.Product,
  '/': Binds.Product,
  '%': Binds.Product,
};
const ITERATIONS: Record<string, (list: string, body: string) => string> = {
  some: (list, body) => `some item of ${list} has ${body}`,
  all: (list, body) => `every item of ${list} has ${body}`,
  none: (list, body) => `no item of ${list} has ${body}`,
  filter: (list, body) => `the items of ${list} with ${body}`,
  map: (list, body) => `${list} mapped to ${body}`,
};

interface Text {
  text: string;
  binds: number;
}

const atom = (text: string): Text => ({ text, binds: Binds.Atom });

function operation(logic: unknown): [string, unknown[]] | null {
  if (logic === null || typeof logic !== 'object' || Array.isArray(logic)) return null;
  const keys = Object.keys(logic);
  if (keys.length !== 1) return null;
  const args = (logic as Record<string, unknown>)[keys[0]!];
  return [keys[0]!, Array.isArray(args) ? args : [args]];
}

function variable(args: unknown[], inItem: boolean): Text {
  const [name, fallback] = args;
  const path = typeof name === 'string' ? name : JSON.stringify(name);
  const text = inItem ? (path === '' ? 'item' : `item.${path}`) : path;
  return atom(fallback === undefined ? text : `${text} (or ${JSON.stringify(fallback)})`);
}

function render(logic: unknown, inItem: boolean): Text {
  if (Array.isArray(logic)) return atom(`[${logic.map((l) => render(l, inItem).text).join(', ')}]`);
  const op = operation(logic);
  if (!op) return atom(JSON.stringify(logic));
  const [name, args] = op;
  const at = (i: number, binds: number) => {
    const part = render(args[i], inItem);
    return part.binds < binds ? `(${part.text})` : part.text;
  };
  if (name === 'var') return variable(args, inItem);
  // A named precondition (rules/preconditions.yaml) reads as its name; the catalogue prints what it means.
  if (name === PRECONDITION && typeof args[0] === 'string') return atom(args[0]);
  if (name === 'and' || name === 'or') {
    // An `and` inside an `or` is parenthesised although it binds tighter: readers should not need the rule.
    const binds = name === 'and' ? Binds.And : Binds.Or;
    return { text: args.map((_, i) => at(i, Binds.Not)).join(` ${name} `), binds };
  }
  if (name === '!') return { text: `not ${at(0, Binds.Sum)}`, binds: Binds.Not };
  if (name === '!!') return { text: `${at(0, Binds.Compare + 1)} is truthy`, binds: Binds.Compare };
  if ((name === '==' || name === '===') && args.length === 2 && [true, false, null].includes(args[1] as boolean))
    return { text: `${at(0, Binds.Compare + 1)} is ${String(args[1])}`, binds: Binds.Compare };
  if ((name === '!=' || name === '!==') && args.length === 2 && args[1] === null)
    return { text: `${at(0, Binds.Compare + 1)} is not null`, binds: Binds.Compare };
  if (name === 'regex_test' && typeof args[0] === 'string') {
    const flags = typeof args[2] === 'string' ? args[2] : '';
    return { text: `${at(1, Binds.Compare + 1)} matches /${args[0]}/${flags}`, binds: Binds.Compare };
  }
  if (COMPARISONS.has(name)) {
    const text = args.map((_, i) => at(i, Binds.Compare + 1)).join(` ${name} `);
    return { text, binds: Binds.Compare };
  }
  if (name in ARITHMETIC) {
    const binds = ARITHMETIC[name]!;
    return { text: args.map((_, i) => at(i, binds + 1)).join(` ${name} `), binds };
  }
  if (name in ITERATIONS) {
    const body = render(args[1], true);
    return { text: ITERATIONS[name]!(at(0, Binds.Atom), `(${body.text})`), binds: Binds.Compare };
  }
  if (name === 'if') {
    const parts: string[] = [];
    for (let i = 0; i + 1 < args.length; i += 2)
      parts.push(`${i ? 'else if' : 'if'} ${at(i, Binds.Or)} then ${at(i + 1, Binds.Or)}`);
    if (args.length % 2 === 1) parts.push(`else ${at(args.length - 1, Binds.Or)}`);
    return { text: parts.join(' '), binds: Binds.If };
  }
  return atom(`${name}(${args.map((a) => render(a, inItem).text).join(', ')})`);
}

/** The logic as one readable expression. */
export function logicText(logic: unknown): string {
  return render(logic, false).text;
}

/** A top-level `and`/`or` split into its terms, for a list; anything else is one term. */
export function logicTerms(logic: unknown): { joiner: 'all' | 'any' | null; terms: string[] } {
  const op = operation(logic);
  if (op && (op[0] === 'and' || op[0] === 'or') && op[1].length > 1)
    return { joiner: op[0] === 'and' ? 'all' : 'any', terms: op[1].map((t) => logicText(t)) };
  return { joiner: null, terms: [logicText(logic)] };
}
