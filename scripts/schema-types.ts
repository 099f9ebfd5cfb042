// TypeScript types from the JSON Schemas in schemas/, so no module keeps a hand-written mirror of a contract.
// `npm run types` writes them to src/lib/schema-types/; the suite fails when a committed file is stale.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { REPO_ROOT } from '../src/lib/paths.ts';

const SCHEMAS = path.join(REPO_ROOT, 'schemas');
export const TYPES_DIR = path.join(REPO_ROOT, 'src', 'lib', 'schema-types');
const ANNOTATIONS = new Set(['description', 'title', '$comment']);

function schemaFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) return schemaFiles(full);
      return entry.endsWith('.json') ? [full] : [];
    });
}

/**
 * A `$ref` with a description beside it would become a second, numbered copy of the referenced type (`Chain1`):
 * the description is dropped so every use names the one type (the referenced definition keeps its own).
 */
function plainRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(plainRefs);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>);
  const isRef = entries.some(([k]) => k === '$ref');
  return Object.fromEntries(
    entries
      .filter(([k]) => !(isRef && ANNOTATIONS.has(k)))
      .map(([k, v]) => [k, k === 'enum' || k === 'const' ? v : plainRefs(v)]),
  );
}

/** The type name of a schema: its title in PascalCase. */
function typeName(title: string): string {
  return title
    .replace(/(^|[^A-Za-z0-9])([a-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase())
    .replace(/[^A-Za-z0-9]/g, '');
}

/** Every generated file, keyed by its path under src/lib/schema-types/. */
export async function generateSchemaTypes(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of schemaFiles(SCHEMAS)) {
    const schema = JSON.parse(readFileSync(file, 'utf8')) as JSONSchema & { title?: string; $id?: string };
    const { $id: _id, ...rest } = schema;
    const name = typeName(schema.title ?? path.basename(file, '.json'));
    const body = await compile({ ...(plainRefs(rest) as JSONSchema), title: name }, name, {
      // A ref to another schema file is read relative to the file that holds it.
      cwd: path.dirname(file),
      bannerComment: '',
      additionalProperties: false,
      strictIndexSignatures: true,
      // A bounded list stays a list: a union of tuples per length (`maxItems: 8` gave nine) is a bound no
      // producer can prove to the compiler, and ajv enforces it where the value crosses a boundary.
      maxItems: -1,
      format: true,
      style: { printWidth: 120, singleQuote: true, trailingComma: 'all' },
    });
    const rel = path.relative(SCHEMAS, file).replace(/\.schema\.json$|\.json$/, '.ts');
    const source = path.relative(REPO_ROOT, file);
    out.set(rel, `// Generated from ${source} by \`npm run types\`; edit the schema, not this file.\n\n${body}`);
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
