// Validation of a published document against a JSON Schema of its specification, with each violation stated as
// the production it breaks: the schema's definition name, the member's JSON Pointer, and what is wrong.
import type { AnySchema, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { cachedValidator } from '../../src/lib/validator-cache.ts';

/** One violation: `production` is the schema definition broken (the document's own name at the top level). */
export interface SchemaViolation {
  production: string;
  pointer: string;
  reason: string;
  /** The JSON Schema keyword broken (required, type, pattern...). */
  keyword: string;
}

/** Violations kept per document: enough to explain, bounded so facts stay small. */
export const MAX_VIOLATIONS = 20;

// strictRequired off: an if/then names the members a discriminator requires without redeclaring them.
const OPTIONS: Options = { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true };

/**
 * Loads a schema's validator on first use (a site that publishes no such document costs nothing), precompiled
 * from the validator cache after the first run; `title` names the top-level production.
 */
export function documentValidator(schema: AnySchema, title: string): (doc: unknown) => SchemaViolation[] {
  let validate: ValidateFunction | null = null;
  return (doc) => {
    validate ??= cachedValidator(schema, OPTIONS);
    return validate(doc) ? [] : violations(validate.errors ?? [], title);
  };
}

function productionOf(error: ErrorObject, title: string): string {
  return /#\/\$defs\/([^/]+)\//.exec(error.schemaPath)?.[1] ?? title;
}

function reasonOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required member "${String(p.missingProperty)}"`;
    case 'type':
      return `must be of type ${String(p.type)}`;
    case 'enum':
      return `must be one of ${JSON.stringify(p.allowedValues)}`;
    case 'minItems':
      return `must hold at least ${String(p.limit)} item(s)`;
    case 'additionalProperties':
      return `member "${String(p.additionalProperty)}" is not allowed`;
    default:
      return error.message ?? error.keyword;
  }
}

/** Ajv's errors as violations, without the summary errors of `if`/`then` that repeat a concrete one. */
function violations(errors: readonly ErrorObject[], title: string): SchemaViolation[] {
  const seen = new Set<string>();
  const out: SchemaViolation[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const v = {
      production: productionOf(error, title),
      pointer: error.instancePath || '/',
      reason: reasonOf(error),
      keyword: error.keyword,
    };
    const key = `${v.pointer} ${v.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out.slice(0, MAX_VIOLATIONS);
}

/** A violation as one line of text, the form facts carry. */
export function violationText(v: SchemaViolation): string {
  return `${v.production} ${v.pointer}: ${v.reason}`;
}

/**
 * The JSON pointer a violation line names (violationText's form), RFC 6901: the document itself is "", which the
 * line writes "/" as ajv's empty instance path reads badly; null for a line of another form.
 */
export function violationPointer(text: string): string | null {
  const pointer = /^\S+ (\/.*?): /.exec(text)?.[1];
  if (pointer === undefined) return null;
  return pointer === '/' ? '' : pointer;
}
