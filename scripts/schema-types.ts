// TypeScript types from the JSON Schemas in schemas/, so no module keeps a hand-written mirror of a contract.
// `npm run types` writes them to src/lib/schema-types/; the suite fails when a committed file is stale.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { REPO_ROOT } from '../src/lib/paths.ts';

const SCHEMAS = path.join(REPO_ROOT, 'schemas');
export const TYPES_DIR = path.join(REPO_ROOT, 'src', 'lib', 'schema-types');
const ANNOTATIONS = new Set(['description', 'title', '$comment']);

type Json = Record<string, unknown>;

function schemaFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) return schemaFiles(full);
      return entry.endsWith('.json') ? [full] : [];
    });
}

const readSchema = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Json & { title?: string };

/** The type name of a schema or definition: its title (or key) in PascalCase, as json-schema-to-typescript names it. */
function typeName(title: string): string {
  return title
    .replace(/(^|[^A-Za-z0-9])([a-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase())
    .replace(/[^A-Za-z0-9]/g, '');
}

/** Where a schema file's types are generated, relative to src/lib/schema-types/. */
const typesFileOf = (file: string) => path.relative(SCHEMAS, file).replace(/\.schema\.json$|\.json$/, '.ts');

/**
 * A `$ref` to another schema file names that file's generated type, imported, instead of a copy of it: the library
 * inlines what a ref points to into every file that refers to it (its open issue #258 asks for imports). Each
 * such ref becomes `tsType` (the library's keyword for "this TypeScript type"), and `imports` collects, per
 * generated file, the names to import from it.
 */
function importRef(ref: string, from: string, imports: Map<string, Set<string>>): Json {
  const [target = '', pointer = ''] = ref.split('#');
  const file = path.resolve(path.dirname(from), target);
  const schema = readSchema(file);
  let name: string;
  if (pointer === '') name = typeName(schema.title ?? path.basename(file, '.json'));
  else {
    const key = /^\/\$defs\/([^/]+)$/.exec(pointer)?.[1];
    const def = key === undefined ? undefined : ((schema.$defs as Json | undefined)?.[key] as Json | undefined);
    if (!key || !def) throw new Error(`${path.relative(REPO_ROOT, from)}: $ref ${ref} names no $defs entry`);
    name = typeName((def.title as string | undefined) ?? key);
  }
  const names = imports.get(typesFileOf(file)) ?? new Set<string>();
  imports.set(typesFileOf(file), names.add(name));
  return { tsType: name };
}

/**
 * The schema as the generator reads it. A `$ref` with a description beside it would become a second, numbered
 * copy of the referenced type (`Chain1`): the description is dropped so every use names the one type (the
 * referenced definition keeps its own). A ref to another file becomes an import (`importRef`), and keeps it.
 */
function prepared(node: unknown, file: string, imports: Map<string, Set<string>>): unknown {
  if (Array.isArray(node)) return node.map((n) => prepared(n, file, imports));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string' && !ref.startsWith('#')) {
    // The description beside it documents the member; as no type is declared here, no copy is made.
    const { description } = node as Json;
    return { ...(description === undefined ? {} : { description }), ...importRef(ref, file, imports) };
  }
  const entries = Object.entries(node as Json);
  return Object.fromEntries(
    entries
      .filter(([k]) => !(typeof ref === 'string' && ANNOTATIONS.has(k)))
      .map(([k, v]) => [k, k === 'enum' || k === 'const' ? v : prepared(v, file, imports)]),
  );
}

/** The import lines of a generated file, each name checked to be one its source file exports. */
function importLines(rel: string, imports: Map<string, Set<string>>, bodies: Map<string, string>): string {
  return [...imports]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([target, names]) => {
      for (const name of names) {
        if (!new RegExp(`^export (interface|type) ${name}\\b`, 'm').test(bodies.get(target) ?? ''))
          throw new Error(`${rel} imports ${name}, which src/lib/schema-types/${target} does not export`);
      }
      let spec = path.relative(path.dirname(rel), target);
      if (!spec.startsWith('.')) spec = `./${spec}`;
      return `import type { ${[...names].sort().join(', ')} } from '${spec}';\n`;
    })
    .join('');
}

/** Every generated file, keyed by its path under src/lib/schema-types/. */
export async function generateSchemaTypes(): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  const importsOf = new Map<string, Map<string, Set<string>>>();
  const sources = new Map<string, string>();
  for (const file of schemaFiles(SCHEMAS)) {
    const { $id: _id, ...rest } = readSchema(file);
    const name = typeName(rest.title ?? path.basename(file, '.json'));
    const imports = new Map<string, Set<string>>();
    const body = await compile({ ...(prepared(rest, file, imports) as JSONSchema), title: name }, name, {
      bannerComment: '',
      additionalProperties: false,
      strictIndexSignatures: true,
      // A bounded list stays a list: a union of tuples per length (`maxItems: 8` gave nine) is a bound no
      // producer can prove to the compiler, and ajv enforces it where the value crosses a boundary.
      maxItems: -1,
      format: true,
      style: { printWidth: 120, singleQuote: true, trailingComma: 'all' },
    });
    const rel = typesFileOf(file);
    bodies.set(rel, body);
    importsOf.set(rel, imports);
    sources.set(rel, path.relative(REPO_ROOT, file));
  }
  const out = new Map<string, string>();
  for (const [rel, body] of bodies) {
    const imports = importLines(rel, importsOf.get(rel)!, bodies);
    const banner = `// Generated from ${sources.get(rel)!} by \`npm run types\`; edit the schema, not this file.\n\n`;
    out.set(rel, `${banner}${imports}${imports ? '\n' : ''}${body}`);
  }
  return out;
}
export async function writeSchemaTypes(): Promise<string[]> {
  const written: string[] = [];
  for (const [rel, text] of await generateSchemaTypes()) {
    const file = path.join(TYPES_DIR, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // A new schema: its file is written below.
    }
    if (current !== text) {
      writeFileSync(file, text);
      written.push(path.relative(REPO_ROOT, file));
    }
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const written = await writeSchemaTypes();
  process.stdout.write(written.length ? `wrote ${written.join(', ')}\n` : 'schema types are up to date\n');
}
