// Where a dotted observation path leads in the observation schemas: the schema nodes it can reach, through
// `$ref`, `allOf`/`anyOf`/`oneOf`, `then`/`else`, properties, pattern properties and list items. Pure functions
// over schema documents: the engine reads which facts a rule's logic may name (logic-analysis.ts), and the
// catalogue (src/catalogue/observation-schemas.ts) reads and compiles the schema files themselves.

export type Schema = Record<string, unknown>;

/** A schema node with the document it lives in, so `$ref`s resolve against the right `$defs`. */
export interface SchemaNode {
  schema: Schema | boolean;
  root: Schema;
}

/** The two namespaces every observations document has, whatever probes ran; defined by the engine. */
export const TARGET_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['domain', 'observed_at'],
  properties: {
    domain: { type: 'string', minLength: 1, description: 'The scanned domain, normalised (lower case, A-labels).' },
    observed_at: {
      type: 'string',
      format: 'date-time',
      description: "The scan's one reading of the clock (UTC, second precision): rules judge dates against it.",
    },
  },
};

export const PROBES_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    required: ['status', 'ms'],
    properties: {
      status: { enum: ['ok', 'error', 'timeout', 'skipped'] },
      error: { type: 'string' },
      ms: { type: 'number', minimum: 0 },
    },
  },
};

/** The schema nodes a dotted path can reach from the document root; empty when no schema defines it. */
export function resolvePath(namespaces: ReadonlyMap<string, Schema>, dotted: string): SchemaNode[] {
  const [head, ...rest] = dotted.split('.');
  const rootSchema = head === 'target' ? TARGET_SCHEMA : head === 'probes' ? PROBES_SCHEMA : namespaces.get(head ?? '');
  if (!rootSchema) return [];
  return descend([{ schema: rootSchema, root: rootSchema }], rest);
}

/** The schema a local `$ref` ("#" or "#/json/pointer") points at in the node's document; null if it cannot tell. */
export function refTarget(node: SchemaNode): SchemaNode | null {
  const ref = typeof node.schema === 'object' ? node.schema.$ref : undefined;
  if (typeof ref !== 'string' || (ref !== '#' && !ref.startsWith('#/'))) return null;
  let target: unknown = node.root;
  for (const part of ref === '#' ? [] : ref.slice(2).split('/')) {
    target = (target as Schema | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return target === undefined ? null : { schema: target as Schema | boolean, root: node.root };
}

/** The node and every subschema whose properties and items also apply to the same value. */
function deref(node: SchemaNode, seen = 0): SchemaNode[] {
  if (typeof node.schema === 'boolean') return node.schema ? [node] : [];
  if (seen > 32) return [];
  const s = node.schema;
  // In 2020-12 keywords beside a $ref still apply, so the node itself stays alongside its target.
  const out: SchemaNode[] = [node];
  const target = refTarget(node);
  if (target) out.push(...deref(target, seen + 1));
  // `then`/`else` may declare properties the base does not; a path valid under either branch is defined.
  for (const key of ['allOf', 'anyOf', 'oneOf', 'then', 'else'] as const) {
    const branches = s[key];
    const list = Array.isArray(branches) ? branches : branches === undefined ? [] : [branches];
    for (const b of list) out.push(...deref({ schema: b as Schema, root: node.root }, seen + 1));
  }
  return out;
}

/** The item schema at one position of a list: a tuple's prefixItems first, then items. */
function itemAt(s: Schema, index: number): Schema | undefined {
  const prefix = s.prefixItems as Schema[] | undefined;
  if (prefix && index < prefix.length) return prefix[index];
  return s.items === undefined || s.items === false ? undefined : (s.items as Schema);
}

function children(node: SchemaNode, key: string): SchemaNode[] {
  const out: SchemaNode[] = [];
  for (const n of deref(node)) {
    if (typeof n.schema === 'boolean') {
      out.push(n);
      continue;
    }
    const s = n.schema;
    const props = s.properties as Record<string, Schema> | undefined;
    if (props && Object.hasOwn(props, key)) out.push({ schema: props[key]!, root: n.root });
    else {
      const patterns = s.patternProperties as Record<string, Schema> | undefined;
      const byPattern = patterns ? Object.entries(patterns).filter(([p]) => new RegExp(p, 'u').test(key)) : [];
      if (byPattern.length) out.push(...byPattern.map(([, v]) => ({ schema: v, root: n.root })));
      else if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
        out.push({ schema: s.additionalProperties as Schema, root: n.root });
      }
    }
    const item = /^\d+$/.test(key) ? itemAt(s, Number(key)) : undefined;
    if (item !== undefined) out.push({ schema: item, root: n.root });
  }
  return out;
}

function descend(nodes: SchemaNode[], parts: string[]): SchemaNode[] {
  let current = nodes;
  for (const part of parts) {
    current = current.flatMap((n) => children(n, part));
    if (current.length === 0) return [];
  }
  return current;
}

/** Schemas of the items of the lists a node may hold (for the inner logic of some/all/none/filter/map). */
export function itemsOf(nodes: SchemaNode[]): SchemaNode[] {
  return nodes
    .flatMap((node) => deref(node))
    .flatMap((n) => {
      if (typeof n.schema === 'boolean') return [n];
      const { items, prefixItems } = n.schema;
      const all = [
        ...((prefixItems as Schema[] | undefined) ?? []),
        ...(items === undefined || items === false ? [] : [items as Schema]),
      ];
      return all.map((schema) => ({ schema, root: n.root }));
    });
}

/** Resolves a dotted path relative to given nodes (a list item's schema). */
export function resolveFrom(nodes: SchemaNode[], dotted: string): SchemaNode[] {
  return dotted === '' ? nodes : descend(nodes, dotted.split('.'));
}
