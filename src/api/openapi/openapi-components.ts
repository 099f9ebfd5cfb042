// The schema files of schemas/ as OpenAPI `components/schemas`, so that every $ref resolves from the document
// root: a file's `$defs` become components of their own (`Certificate` + `payload` -> `CertificatePayload`),
// and refs inside a file (`#/$defs/x`) or to another file (by its `$id`) are rewritten to point at them.
// Tools that read only OpenAPI (generators, linters) never see a `$id` or a `$defs` they would have to follow.
// The same bundling gives an MCP tool its output schema as one self-contained document (refs into its `$defs`).

type Json = Record<string, unknown>;

/** One schema file and the component name it is published under. */
export interface SchemaSource {
  name: string;
  schema: Json;
}

const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9])([a-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());
const COMPONENTS = '#/components/schemas/';

/** The URI a schema's relative refs resolve against: its `$id`, or a name of its own when it has none. */
const idOf = ({ name, schema }: SchemaSource) =>
  typeof schema.$id === 'string' ? schema.$id : `urn:dvs:component:${name}`;

/** Where each `$id` (and each of its `$defs`) lives in components/schemas. */
function targets(sources: readonly SchemaSource[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const source of sources) {
    const { name, schema } = source;
    const id = idOf(source);
    out.set(id, name);
    for (const def of Object.keys((schema.$defs as Json | undefined) ?? {}))
      out.set(`${id}#/$defs/${def}`, name + pascal(def));
  }
  return out;
}

interface Rewriting {
  base: string;
  where: Map<string, string>;
  prefix: string;
}

/** A $ref as the component it names; a ref this document cannot serve is a bug in schemas/, caught at start. */
function resolveRef(ref: string, r: Rewriting): string {
  const absolute = new URL(ref, r.base).href;
  const target = r.where.get(absolute) ?? r.where.get(absolute.replace(/#$/, ''));
  if (!target) throw new Error(`schema ${r.base}: $ref ${ref} names no schema file or $defs entry`);
  return r.prefix + target;
}

function rewrite(node: unknown, r: Rewriting): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, r));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Json).map(([k, v]) => {
      if (k === '$ref' && typeof v === 'string') return [k, resolveRef(v, r)];
      // const and enum hold data, not schemas: a member that happens to be called $ref stays as it is.
      return [k, k === 'const' || k === 'enum' ? v : rewrite(v, r)];
    }),
  );
}

/** Every schema and every `$defs` entry as a component, refs pointing into components/schemas. */
export function componentSchemas(sources: readonly SchemaSource[], prefix = COMPONENTS): Record<string, Json> {
  const where = targets(sources);
  const out: Record<string, Json> = {};
  for (const source of sources) {
    const { name, schema } = source;
    const { $schema: _dialect, $id: _id, $defs, ...rest } = schema;
    const r = { base: idOf(source), where, prefix };
    out[name] = rewrite(rest, r) as Json;
    for (const [def, sub] of Object.entries(($defs as Json | undefined) ?? {}))
      out[name + pascal(def)] = rewrite(sub, r) as Json;
  }
  return out;
}

/** The names a schema refers to (with the given prefix), directly or through what it refers to. */
function reachable(root: Json, all: Record<string, Json>, prefix: string): string[] {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node as Json)) {
      if (k === '$ref' && typeof v === 'string' && !seen.has(v.slice(prefix.length))) {
        seen.add(v.slice(prefix.length));
        visit(all[v.slice(prefix.length)]);
      } else if (k !== 'const' && k !== 'enum') visit(v);
    }
  };
  visit(root);
  return [...seen].sort();
}

/** One schema as a self-contained document: what it refers to is carried in its own `$defs`. */
export function standaloneSchema(name: string, sources: readonly SchemaSource[]): Json {
  const prefix = '#/$defs/';
  const all = componentSchemas(sources, prefix);
  const root = all[name];
  if (!root) throw new Error(`no schema named ${name}`);
  const defs = reachable(root, all, prefix);
  return defs.length ? { ...root, $defs: Object.fromEntries(defs.map((d) => [d, all[d]!])) } : root;
}
