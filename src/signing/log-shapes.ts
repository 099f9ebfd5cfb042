// The shapes of the transparency log's documents (schemas/api/tree-head.json, log-inclusion.json,
// log-consistency.json), checked before a verifier reads a member of what an issuer sent.
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { lazyRequire } from '../lib/lazy-require.ts';
import consistencySchema from '../../schemas/api/log-consistency.json' with { type: 'json' };
import inclusionSchema from '../../schemas/api/log-inclusion.json' with { type: 'json' };
import treeHeadSchema from '../../schemas/api/tree-head.json' with { type: 'json' };
import type { LogConsistency } from '../lib/schema-types/api/log-consistency.ts';
import type { LogInclusion } from '../lib/schema-types/api/log-inclusion.ts';
import type { TreeHead } from '../lib/schema-types/api/tree-head.ts';

export type { LogConsistency, LogInclusion, TreeHead };

/** The schemas a certificate's `log` member refers to, for an ajv that compiles the certificate schema. */
export const LOG_SCHEMAS = [treeHeadSchema, inclusionSchema] as const;

const ajvModule = lazyRequire<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
const ajvFormats = lazyRequire<typeof import('ajv-formats')>('ajv-formats');
let ajv: Ajv2020 | null = null;

function logAjv(): Ajv2020 {
  if (!ajv) {
    ajv = new (ajvModule().Ajv2020)({ allErrors: true, strict: true });
    ajvFormats().default(ajv);
    ajv.addSchema(treeHeadSchema);
  }
  return ajv;
}

/** A validator with ajv's `errors` after each call. */
export interface ShapeValidator<T> {
  (value: unknown): value is T;
  errors?: ErrorObject[] | null;
}

/**
 * Compiled on first use: a starting service signs tree heads but checks none, and ajv with its compiles was a
 * tenth of its start.
 */
function lazyValidator<T>(compile: () => ValidateFunction<T>): ShapeValidator<T> {
  let fn: ValidateFunction<T> | null = null;
  const check = ((value: unknown) => {
    fn ??= compile();
    const ok = fn(value);
    check.errors = fn.errors;
    return ok;
  }) as ShapeValidator<T>;
  return check;
}

export const validTreeHead = lazyValidator(() => logAjv().getSchema(treeHeadSchema.$id) as ValidateFunction<TreeHead>);
export const validInclusion = lazyValidator(() => logAjv().compile<LogInclusion>(inclusionSchema));
export const validConsistency = lazyValidator(() => logAjv().compile<LogConsistency>(consistencySchema));

/** The first problem ajv found, as one phrase. */
export function shapeProblem(validate: ShapeValidator<unknown>): string {
  const first = validate.errors?.[0];
  return `${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`;
}
