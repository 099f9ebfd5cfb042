// Facts about an OpenAPI (3.x) or Swagger (2.0) description: what an agent planning calls would read.
import { asArray, asObject, asString, isHttpsUrl, objectKeys } from './json-value.ts';

export interface OpenApiFacts {
  family: 'openapi' | 'swagger' | null;
  spec_version: string | null;
  info_title: string | null;
  info_version: string | null;
  paths_count: number | null;
  webhooks_count: number | null;
  operations_count: number;
  operation_ids_count: number;
  duplicate_operation_ids: string[];
  described_operations_count: number;
  secured_operations_count: number;
  security_schemes_count: number;
  servers_count: number;
  servers_non_https_count: number;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function inspectOpenApi(json: unknown): OpenApiFacts {
  const doc = asObject(json) ?? {};
  const openapi = asString(doc.openapi);
  const swagger = asString(doc.swagger);
  const info = asObject(doc.info);
  const paths = asObject(doc.paths);
  const webhooks = asObject(doc.webhooks);
  const globalSecurity = (asArray(doc.security) ?? []).length > 0;

  const ids = new Map<string, number>();
  let operations = 0;
  let described = 0;
  let secured = 0;
  for (const item of [...Object.values(paths ?? {}), ...Object.values(webhooks ?? {})]) {
    const pathItem = asObject(item);
    if (!pathItem) continue;
    for (const method of METHODS) {
      const op = asObject(pathItem[method]);
      if (!op) continue;
      operations += 1;
      const id = asString(op.operationId);
      if (id !== null) ids.set(id, (ids.get(id) ?? 0) + 1);
      if (asString(op.summary) || asString(op.description)) described += 1;
      const own = asArray(op.security);
      if (own ? own.length > 0 : globalSecurity) secured += 1;
    }
  }

  // Swagger 2.0 names its server by host + basePath + schemes; OpenAPI 3 lists servers[].url.
  const servers: string[] = [];
  if (swagger !== null) {
    const host = asString(doc.host);
    const schemes = asArray(doc.schemes) ?? ['https'];
    if (host) for (const s of schemes) servers.push(`${String(s)}://${host}${asString(doc.basePath) ?? ''}`);
  } else {
    for (const s of asArray(doc.servers) ?? []) {
      const url = asString(asObject(s)?.url);
      if (url !== null) servers.push(url);
    }
  }
  const schemes = swagger !== null ? doc.securityDefinitions : asObject(doc.components)?.securitySchemes;

  return {
    family: openapi !== null ? 'openapi' : swagger !== null ? 'swagger' : null,
    spec_version: openapi ?? swagger,
    info_title: asString(info?.title),
    info_version: asString(info?.version),
    paths_count: paths ? Object.keys(paths).length : null,
    webhooks_count: webhooks ? Object.keys(webhooks).length : null,
    operations_count: operations,
    operation_ids_count: [...ids.values()].reduce((a, b) => a + b, 0),
    duplicate_operation_ids: [...ids]
      .filter(([, n]) => n > 1)
      .map(([id]) => id)
      .sort(),
    described_operations_count: described,
    secured_operations_count: secured,
    security_schemes_count: objectKeys(schemes).length,
    servers_count: servers.length,
    servers_non_https_count: servers.filter((u) => !isHttpsUrl(u)).length,
  };
}
