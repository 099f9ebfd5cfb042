// The API's JSON Schemas (schemas/api/*.json): loaded once, compiled by ajv for request validation, and
// reused as-is by openapi.json and the MCP tool input schemas, so there is one source for all three.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { lazyRequire } from '../../lib/lazy-require.ts';
import { REPO_ROOT } from '../../lib/paths.ts';
import type { SchemaSource } from '../openapi/openapi-components.ts';

export type ApiSchemaName =
  | 'batch-request'
  | 'batch-accepted'
  | 'batch-status'
  | 'batch-result'
  | 'account'
  | 'webhook-request'
  | 'webhook-endpoint'
  | 'webhook-secret'
  | 'webhook-list'
  | 'webhook-deliveries'
  | 'monitor-request'
  | 'monitor-update'
  | 'monitor-tokens'
  | 'monitor'
  | 'monitor-list'
  | 'quickscan-request'
  | 'fullvalidation-request'
  | 'scan-result'
  | 'full-validation-result'
  | 'error'
  | 'certificate-status'
  | 'domain-history'
  | 'tree-head'
  | 'log-inclusion'
  | 'log-consistency';
/** The documents the API returns, referred to by the API schemas (ScanResult's structuredContent). */
export type DocumentSchemaName = 'certificate' | 'report';

const cache = new Map<string, Record<string, unknown>>();

export function apiSchema(name: ApiSchemaName | DocumentSchemaName): Record<string, unknown> {
  let s = cache.get(name);
  if (!s) {
    const file =
      name === 'certificate' || name === 'report'
        ? path.join(REPO_ROOT, 'schemas', `${name}.schema.json`)
        : path.join(REPO_ROOT, 'schemas', 'api', `${name}.json`);
    s = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    cache.set(name, s);
  }
  return s;
}

/** Every schema the API publishes, under its OpenAPI component name (its title). */
export function publishedSchemas(): SchemaSource[] {
  const names = [
    'quickscan-request',
    'fullvalidation-request',
    'scan-result',
    'full-validation-result',
    'error',
    'report',
    'certificate',
    'certificate-status',
    'domain-history',
    'tree-head',
    'log-inclusion',
    'log-consistency',
    'batch-request',
    'batch-accepted',
    'batch-status',
    'batch-result',
    'account',
    'webhook-request',
    'webhook-endpoint',
    'webhook-secret',
    'webhook-list',
    'webhook-deliveries',
    'monitor-request',
    'monitor-update',
    'monitor-tokens',
    'monitor',
    'monitor-list',
  ] as const;
  return names.map((n) => ({ name: apiSchema(n).title as string, schema: apiSchema(n) }));
}

const ajvModule = lazyRequire<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
const ajvFormats = lazyRequire<typeof import('ajv-formats')>('ajv-formats');
let ajv: Ajv2020 | null = null;

/** Made with the first validation (a tenth of a service's start went to ajv and the meta-schema checks). */
function apiAjv(): Ajv2020 {
  if (!ajv) {
    ajv = new (ajvModule().Ajv2020)({ allErrors: true, strict: true });
    ajvFormats().default(ajv);
    // Schemas that others refer to by $id are known to ajv before any of them is compiled.
    for (const name of [
      'tree-head',
      'log-inclusion',
      'certificate',
      'report',
      'error',
      'full-validation-result',
      'certificate-status',
      'webhook-request',
      'webhook-endpoint',
      'monitor-request',
      'monitor',
    ] as const)
      ajv.addSchema(apiSchema(name));
  }
  return ajv;
}
const validators = new Map<string, ValidateFunction>();

function validator(name: ApiSchemaName | DocumentSchemaName): ValidateFunction {
  let v = validators.get(name);
  if (!v) {
    const id = apiSchema(name).$id as string;
    v = apiAjv().getSchema(id) ?? apiAjv().compile(apiSchema(name));
    validators.set(name, v);
  }
  return v;
}

function describe(e: ErrorObject, schema: Record<string, unknown>): string {
  const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  switch (e.keyword) {
    case 'required':
      return `${String(e.params.missingProperty)} is required`;
    case 'additionalProperties': {
      const allowed = Object.keys((schema.properties as object) ?? {}).join(', ');
      return `unknown field "${String(e.params.additionalProperty)}" (allowed: ${allowed})`;
    }
    case 'type':
      return field ? `${field} must be a ${String(e.params.type)}` : `the body must be a JSON ${String(e.params.type)}`;
    default:
      return `${field || 'the body'} ${e.message ?? 'is invalid'}`;
  }
}

/** Null when the value is valid; otherwise one sentence naming every problem. */
export function validationProblem(name: ApiSchemaName | DocumentSchemaName, value: unknown): string | null {
  const v = validator(name);
  if (v(value)) return null;
  const schema = apiSchema(name);
  return [...new Set((v.errors ?? []).map((e) => describe(e, schema)))].join('; ');
}
