// The observation schemas (schemas/observations/<probe>.json) as one registry: validators for probe output
// (complete) and for rule examples (partial: `required` dropped, so examples stay small but cannot invent a
// field or use a wrong type), and a path resolver the loader uses to refuse `var`s no probe defines.
// Compiling the complete validators takes over a second of CPU; a run loads them precompiled (ajv's standalone
// code, kept in the ruleset artifact) and never imports ajv.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Ajv2020, Options, ValidateFunction, ErrorObject } from 'ajv/dist/2020.js';
import { lazyRequire } from '../lib/lazy-require.ts';
import { runStandalone } from '../lib/validator-cache.ts';
import { PROBES_SCHEMA, resolvePath, TARGET_SCHEMA, type Schema, type SchemaNode } from '../engine/schema-paths.ts';
import type { ObservationValidation } from '../engine/ruleset.ts';

const ajvModule = lazyRequire<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
const ajvFormats = lazyRequire<typeof import('ajv-formats')>('ajv-formats');
const ajvStandalone = lazyRequire<typeof import('ajv/dist/standalone/index.js')>('ajv/dist/standalone/index.js');

const COMPLETE_OPTIONS: Options = { allErrors: true, strict: true, allowUnionTypes: true };
// Partial schemas lose minItems, which strict mode demands beside a tuple's prefixItems.
const PARTIAL_OPTIONS: Options = { ...COMPLETE_OPTIONS, strictTuples: false };

function newAjv(options: Options): Ajv2020 {
  const ajv = new (ajvModule().Ajv2020)(options);
  ajvFormats().default(ajv);
  return ajv;
}

const schemaId = (namespace: string) => `dvs:observations:${namespace}`;

/** A schema for partial documents: without its `$id`, and without `required` and minimum counts anywhere. */
function partial(schema: Schema): Schema {
  const { $id: _id, ...rest } = schema;
  return withoutRequired(rest) as Schema;
}

function withoutRequired(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRequired);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // `required` is a keyword only where its value is a list; a property called "required" stays.
    if (k === 'required' && Array.isArray(v)) continue;
    if ((k === 'minItems' || k === 'minProperties') && typeof v === 'number') continue;
    out[k] = withoutRequired(v);
  }
  return out;
}

export function formatAjvErrors(errors: ErrorObject[] | null | undefined, prefix = ''): string {
  return (errors ?? [])
    .map((e) => {
      const where = `${prefix}${e.instancePath}` || '/';
      const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
      return `${where} ${e.message ?? e.keyword}${extra}`;
    })
    .join('; ');
}

/**
 * Each schema with the definitions it takes from a sibling file (`wellknown.json#/$defs/document`) copied into
 * its own `$defs`, and those refs made local: a fact the fetcher records for two probes is defined once, in one
 * file, while ajv, the path resolver and the docs go on reading each namespace as one self-contained document.
 */
export function withSharedDefs(namespaces: ReadonlyMap<string, Schema>): Map<string, Schema> {
  const out = new Map<string, Schema>();
  for (const [name, schema] of namespaces) {
    const own = (schema.$defs as Schema | undefined) ?? {};
    const copied = new Map<string, { from: string; def: unknown }>();
    // A node with nothing to change is returned as it is, so a schema that borrows nothing is not copied.
    const local = (node: unknown, from: string): unknown => {
      if (node === null || typeof node !== 'object') return node;
      if (Array.isArray(node)) {
        const items = node.map((n) => local(n, from));
        return items.some((n, i) => n !== node[i]) ? items : node;
      }
      let copy: Schema | null = null;
      for (const [k, v] of Object.entries(node as Schema)) {
        const after = k === 'enum' || k === 'const' ? v : local(v, from);
        if (after !== v) (copy ??= { ...(node as Schema) })[k] = after;
      }
      const ref = (node as Schema).$ref;
      if (typeof ref !== 'string') return copy ?? node;
      const [file = '', pointer = ''] = ref.split('#');
      const source = file === '' ? from : file.replace(/\.json$/, '');
      if (source === name) return copy ?? node;
      const key = /^\/\$defs\/([^/]+)$/.exec(pointer)?.[1] ?? '';
      const def = (namespaces.get(source)?.$defs as Schema | undefined)?.[key];
      if (def === undefined) throw new Error(`${name}.json: $ref ${ref} names no $defs entry of a sibling`);
      if (Object.hasOwn(own, key) || (copied.get(key)?.from ?? source) !== source)
        throw new Error(`${name}.json: $defs/${key} would be defined twice (${ref})`);
      if (!copied.has(key)) {
        copied.set(key, { from: source, def: null });
        copied.set(key, { from: source, def: local(def, source) });
      }
      return { ...(copy ?? node), $ref: `#/$defs/${key}` };
    };
    const bundled = local(schema, name) as Schema;
    if (copied.size === 0) out.set(name, schema);
    else {
      const taken = Object.fromEntries([...copied].map(([key, { def }]) => [key, def]));
      out.set(name, { ...bundled, $defs: { ...taken, ...(bundled.$defs as Schema | undefined) } });
    }
  }
  return out;
}

export class ObservationSchemas implements ObservationValidation {
  /** Probe namespace -> its schema document. */
  readonly namespaces: ReadonlyMap<string, Schema>;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly all: ReadonlyMap<string, Schema>;
  private ajv: { complete: Ajv2020; partial: Ajv2020 } | null = null;

  /** `precompiled`: complete validators by namespace, from `standaloneCode()` (see `loadStandalone`). */
  constructor(namespaces: Map<string, Schema>, precompiled?: ReadonlyMap<string, ValidateFunction>) {
    this.namespaces = namespaces;
    this.all = new Map<string, Schema>([['target', TARGET_SCHEMA], ['probes', PROBES_SCHEMA], ...namespaces]);
    for (const [name, fn] of precompiled ?? []) this.validators.set(`complete:${name}`, fn);
  }

  /**
   * Compiles every validator now. Validators are otherwise compiled on first use, so a run that loads a checked
   * ruleset pays only for the namespaces it validates; the full check calls this so a broken schema fails there.
   */
  compileAll(): this {
    for (const name of this.all.keys()) {
      this.validator(name, 'complete');
      this.validator(name, 'partial');
    }
    return this;
  }

  private validator(name: string, mode: 'complete' | 'partial'): ValidateFunction | null {
    const key = `${mode}:${name}`;
    let fn = this.validators.get(key);
    if (fn) return fn;
    const schema = this.all.get(name);
    if (!schema) return null;
    fn = mode === 'complete' ? this.compiledComplete(name, schema) : this.compilers().partial.compile(partial(schema));
    this.validators.set(key, fn);
    return fn;
  }

  /**
   * The complete validators keep their source, so the artifact's standalone code is written from the very
   * validators the full check compiled: compiling them a second time for it took 0.4 s of the artifact's 3 s.
   */
  private compilers(): { complete: Ajv2020; partial: Ajv2020 } {
    return (this.ajv ??= {
      complete: newAjv({ ...COMPLETE_OPTIONS, code: { source: true } }),
      partial: newAjv(PARTIAL_OPTIONS),
    });
  }

  private compiledComplete(name: string, schema: Schema): ValidateFunction {
    const { complete } = this.compilers();
    const id = schemaId(name);
    let fn = complete.getSchema(id);
    if (!fn) {
      const { $id: _id, ...rest } = schema;
      complete.addSchema(rest, id);
      fn = complete.getSchema(id)!;
    }
    return fn;
  }

  /**
   * The complete validators of every namespace as one CommonJS module (ajv's standalone code), exporting each
   * under its namespace's name: the validators' code as compiled, written out when the ruleset artifact is built.
   */
  standaloneCode(): string {
    const exports: Record<string, string> = {};
    for (const [name, schema] of this.all) {
      this.compiledComplete(name, schema);
      exports[name] = schemaId(name);
    }
    return ajvStandalone().default(this.compilers().complete, exports);
  }

  /** Runs `standaloneCode()` output, with V8's code cache for it in `codeCacheFile` when given. */
  static loadStandalone(code: string, filename: string, codeCacheFile?: string): Map<string, ValidateFunction> {
    return new Map(Object.entries(runStandalone(code, filename, codeCacheFile)));
  }

  static fromDirectory(dir: string, precompiled?: ReadonlyMap<string, ValidateFunction>): ObservationSchemas {
    const namespaces = new Map<string, Schema>();
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const name = file.slice(0, -'.json'.length);
      if (name === 'target' || name === 'probes')
        throw new Error(`${path.join(dir, file)}: "${name}" is reserved by the engine`);
      try {
        namespaces.set(name, JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Schema);
      } catch (err) {
        throw new Error(`${path.join(dir, file)}: ${(err as Error).message}`, { cause: err });
      }
    }
    return new ObservationSchemas(withSharedDefs(namespaces), precompiled);
  }

  /** Validates one namespace of a document; returns an error text or null. */
  validate(namespace: string, value: unknown, mode: 'complete' | 'partial'): string | null {
    const fn = this.validator(namespace, mode);
    if (!fn) return `unknown observation namespace "${namespace}"`;
    return fn(value) ? null : formatAjvErrors(fn.errors, `${namespace}`);
  }

  /** Validates every namespace of a (partial) observations document. */
  validateDocument(doc: Record<string, unknown>, mode: 'complete' | 'partial'): string | null {
    const problems: string[] = [];
    for (const [ns, value] of Object.entries(doc)) {
      const problem = this.validate(ns, value, mode);
      if (problem) problems.push(problem);
    }
    return problems.length ? problems.join('; ') : null;
  }

  /** The schema nodes a dotted path can reach from the document root; empty when no schema defines it. */
  resolve(dotted: string): SchemaNode[] {
    return resolvePath(this.namespaces, dotted);
  }
}
