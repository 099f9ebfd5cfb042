// The shapes of the transparency log's documents (schemas/api/tree-head.json, log-inclusion.json,
// log-consistency.json), checked before a verifier reads a member of what an issuer sent.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import consistencySchema from '../../schemas/api/log-consistency.json' with { type: 'json' };
import inclusionSchema from '../../schemas/api/log-inclusion.json' with { type: 'json' };
import treeHeadSchema from '../../schemas/api/tree-head.json' with { type: 'json' };
import type { LogConsistency } from '../lib/schema-types/api/log-consistency.ts';
import type { LogInclusion } from '../lib/schema-types/api/log-inclusion.ts';
import type { TreeHead } from '../lib/schema-types/api/tree-head.ts';

export type { LogConsistency, LogInclusion, TreeHead };

/** The schemas a certificate's `log` member refers to, for an ajv that compiles the certificate schema. */
export const LOG_SCHEMAS = [treeHeadSchema, inclusionSchema] as const;

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv);
ajv.addSchema(treeHeadSchema);

export const validTreeHead = ajv.getSchema(treeHeadSchema.$id) as ValidateFunction<TreeHead>;
export const validInclusion = ajv.compile<LogInclusion>(inclusionSchema);
export const validConsistency = ajv.compile<LogConsistency>(consistencySchema);

/** The first problem ajv found, as one phrase. */
export function shapeProblem(validate: ValidateFunction): string {
  const first = validate.errors?.[0];
  return `${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`;
}
