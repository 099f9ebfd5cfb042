import { describe, it, expect } from 'vitest';
import { inspectOpenApi } from '../../../plugins/agents/inspect-openapi.ts';

describe('inspectOpenApi', () => {
  it('counts operations, ids, descriptions, security and servers of OpenAPI 3.1', () => {
    const facts = inspectOpenApi({
      openapi: '3.1.0',
      info: { title: 'Shop', version: '2.0' },
      servers: [{ url: 'https://api.example.com' }, { url: '/v1' }],
      security: [{ key: [] }],
      components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
      paths: {
        '/items': {
          get: { operationId: 'listItems', summary: 'List' },
          post: { operationId: 'listItems', security: [] },
        },
        '/items/{id}': { parameters: [], get: { description: 'One item' } },
      },
      webhooks: { newItem: { post: { operationId: 'newItem' } } },
    });
    expect(facts).toEqual({
      family: 'openapi',
      spec_version: '3.1.0',
      info_title: 'Shop',
      info_version: '2.0',
      paths_count: 2,
      webhooks_count: 1,
      operations_count: 4,
      operation_ids_count: 3,
      duplicate_operation_ids: ['listItems'],
      described_operations_count: 2,
      secured_operations_count: 3,
      security_schemes_count: 1,
      servers_count: 2,
      servers_non_https_count: 1,
    });
  });

  it('reads Swagger 2.0 servers from host and schemes', () => {
    const facts = inspectOpenApi({
      swagger: '2.0',
      info: { title: 'Old', version: '1' },
      host: 'api.example.com',
      basePath: '/v1',
      schemes: ['http', 'https'],
      paths: {},
    });
    expect(facts).toMatchObject({
      family: 'swagger',
      spec_version: '2.0',
      servers_count: 2,
      servers_non_https_count: 1,
      operations_count: 0,
    });
  });

  it('answers nulls for JSON that is not an API description', () => {
    expect(inspectOpenApi({ hello: 'world' })).toMatchObject({
      family: null,
      spec_version: null,
      paths_count: null,
      operations_count: 0,
    });
  });
});
