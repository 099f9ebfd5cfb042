// /openapi.json, generated at start from the API schemas and the certificate schema (never hand-copied), so
// the published description cannot drift from what ajv enforces.
import { apiSchema } from './api-schemas.ts';
import { ACCEPTED_ENCODINGS, BODY_LIMIT } from './json-body.ts';
import { MCP_PATH } from './mcp-routes.ts';
import { RESPONSE_SIGNATURE_FIELDS, RESPONSE_SIGNATURE_LABEL } from './response-signing.ts';
import { SERVICE_INFO } from './service-info.ts';

const OPENAPI_VERSION = '1.0.0';

type Json = Record<string, unknown>;

/** A schema file as an OpenAPI component: the dialect is declared once for the document. */
function component(name: Parameters<typeof apiSchema>[0]): Json {
  const { $schema: _dialect, ...rest } = apiSchema(name);
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const signedHeaders = {
  'Content-Digest': { $ref: '#/components/headers/Content-Digest' },
  'Signature-Input': { $ref: '#/components/headers/Signature-Input' },
  Signature: { $ref: '#/components/headers/Signature' },
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
};

function errorResponse(description: string, extraHeaders: Json = {}): Json {
  return {
    description,
    headers: { ...signedHeaders, ...extraHeaders },
    content: { 'application/json': { schema: ref('Error') } },
  };
}

function jsonResponse(description: string, schemaName: string, extraHeaders: Json = {}): Json {
  return {
    description,
    headers: { ...signedHeaders, ...extraHeaders },
    content: { 'application/json': { schema: ref(schemaName) } },
  };
}

/** Answers every operation can give, whatever its own. */
function commonErrors(trustProxy: boolean): Json {
  const out: Json = {
    '400': errorResponse(
      'The body is not valid JSON (or does not decompress as its Content-Encoding says), is not sent as application/json, has unknown fields, or the domain is invalid (a scheme, path, port, IP literal, bad label, too long, no public suffix, or a special-use name such as .onion or .local).',
    ),
    '413': errorResponse(`The request body is larger than ${BODY_LIMIT}.`),
    '415': errorResponse(
      `The body's Content-Encoding is not one the service decodes (${ACCEPTED_ENCODINGS.join(', ')}, or none).`,
      { 'Accept-Encoding': { description: 'The accepted encodings.', schema: { type: 'string' } } },
    ),
    '504': errorResponse('The scan did not finish within its deadline; nothing was charged.'),
    '500': errorResponse('The service failed; the request id in X-Request-Id finds it in the logs.'),
  };
  if (trustProxy)
    out['403'] = errorResponse('The request reached the TLS-terminating proxy over plain HTTP; use https://.');
  return out;
}

/** The service-wide bound on concurrent scans is reached (code `busy`); a payment token is left untouched. */
const busy = (): Json =>
  errorResponse(
    'The service is running as many scans as it can (Error code `busy`); nothing was charged. Retry after Retry-After seconds.',
    {
      'Retry-After': {
        description: 'Seconds to wait before trying again.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
  );

export function buildOpenApi(opts: { baseUrl: string; trustProxy: boolean }): Json {
  const requestBody = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
  const notAllowed = {
    description:
      'Not allowed: the MCP server is stateless, so it opens no server-to-client stream and has no session to end.',
    headers: { ...signedHeaders, Allow: { description: 'The allowed method: POST.', schema: { type: 'string' } } },
    content: { 'application/json': { schema: ref('Error') } },
  };
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: SERVICE_INFO.title,
      version: OPENAPI_VERSION,
      summary: 'Is a domain ready for AI agents?',
      description: `${SERVICE_INFO.description} Every response carries a Content-Digest (RFC 9530) and an RFC 9421 signature (label ${RESPONSE_SIGNATURE_LABEL}, components ${RESPONSE_SIGNATURE_FIELDS.join(' ')}) made with the key published at ${opts.baseUrl}/.well-known/jwks.json. See ${opts.baseUrl}/docs/api.`,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: opts.baseUrl }],
    security: [],
    paths: {
      '/api/quickscan': {
        post: {
          operationId: 'quickscan',
          summary: 'Quick Scan a domain (free)',
          description:
            'A fast subset of the rules: an indicative verdict, a score and the top findings. Results are cached per domain; scans that really run are rate-limited per client.',
          requestBody: requestBody('QuickScanRequest'),
          responses: {
            '200': jsonResponse(
              'The result: a summary and the canonical JSON report; isError is true when the domain could not be judged (for example it does not resolve).',
              'ScanResult',
              {
                'X-Cache': {
                  description: 'hit when the result came from the cache, miss when a scan ran.',
                  schema: { type: 'string', enum: ['hit', 'miss'] },
                },
              },
            ),
            ...commonErrors(opts.trustProxy),
            '503': busy(),
            '429': errorResponse('Too many quick scans from this client.', {
              'Retry-After': {
                description: 'Seconds until the client may scan again.',
                schema: { type: 'integer', minimum: 1 },
              },
            }),
          },
        },
      },
      '/api/fullvalidation': {
        post: {
          operationId: 'fullvalidation',
          summary: 'Full Validation of a domain (paid), answered with a signed certificate',
          description:
            'Every rule, a verdict and a certificate signed with Ed25519 (detached JWS). One payment token pays for one validation; repeating it for the same domain returns the same certificate. The token goes in the body, never in an Authorization header.',
          requestBody: requestBody('FullValidationRequest'),
          responses: {
            '200': jsonResponse(
              'The result: a summary and the canonical JSON of the certificate (schema Certificate); isError is true when the domain could not be judged, and then the token is not used.',
              'ScanResult',
            ),
            ...commonErrors(opts.trustProxy),
            '503': busy(),
            '402': errorResponse(
              'payment_token is missing (or was sent in an Authorization header), unknown, expired, used for another domain, or in use by a running validation.',
            ),
          },
        },
      },
      '/api/certificates/{id}': {
        get: {
          operationId: 'certificate',
          summary: 'A certificate issued earlier, byte for byte',
          description:
            'The canonical JSON of {payload, jws} exactly as the Full Validation first returned it. Verify it with any JOSE library and the key from /.well-known/jwks.json. JSON is the default; a client that ranks text/html above application/json in Accept (a browser) gets the certificate page instead.',
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              description: 'The certificate id (payload.id), e.g. dvc_…',
              schema: { type: 'string', maxLength: 128 },
            },
          ],
          responses: {
            '200': jsonResponse('The certificate.', 'Certificate'),
            '404': errorResponse('No certificate with this id was issued by this service.'),
          },
        },
      },
      '/api/certificates/{id}/status': {
        get: {
          operationId: 'certificateStatus',
          summary: 'Whether a certificate is still current: valid, expired, superseded or revoked',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 128 } }],
          responses: {
            '200': jsonResponse('The status (not cached: it changes).', 'CertificateStatus'),
            '404': errorResponse('No certificate with this id was issued by this service.'),
          },
        },
      },
      '/api/certificates/{id}/evidence': {
        get: {
          operationId: 'certificateEvidence',
          summary: 'The observations a certificate was judged on: the canonical JSON whose SHA-256 is evidence_digest',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 128 } }],
          responses: {
            '200': {
              description: 'The canonical observations document, byte for byte.',
              headers: signedHeaders,
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            '404': errorResponse('No certificate with this id was issued by this service.'),
            '410': errorResponse('The certificate expired and its evidence is no longer kept.'),
          },
        },
      },
      [MCP_PATH]: {
        post: {
          operationId: 'mcp',
          summary: 'MCP (JSON-RPC 2.0 over Streamable HTTP, stateless)',
          description:
            'Tools service_quickscan and service_fullvalidation, with the request schemas as input schemas. Send Accept: application/json, text/event-stream.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message.' } } },
          },
          responses: {
            '200': {
              description: 'The JSON-RPC response.',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            '400': {
              description: 'A JSON-RPC error: the message could not be parsed or is not valid JSON-RPC.',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            '413': {
              description: `A JSON-RPC error: the message is larger than ${BODY_LIMIT}.`,
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            '415': {
              description: `A JSON-RPC error: the body's Content-Encoding is not one of ${ACCEPTED_ENCODINGS.join(', ')}.`,
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
        get: { operationId: 'mcpStream', summary: 'Not offered (stateless server)', responses: { '405': notAllowed } },
        delete: {
          operationId: 'mcpEndSession',
          summary: 'Not offered (stateless server)',
          responses: { '405': notAllowed },
        },
      },
    },
    components: {
      schemas: {
        QuickScanRequest: component('quickscan-request'),
        FullValidationRequest: component('fullvalidation-request'),
        ScanResult: component('scan-result'),
        Error: component('error'),
        Certificate: component('certificate'),
        CertificateStatus: component('certificate-status'),
      },
      headers: {
        'Content-Digest': {
          description: 'RFC 9530 digest of the body: sha-256=:<base64>:.',
          schema: { type: 'string' },
        },
        'Signature-Input': {
          description: `RFC 9421 signature parameters of ${RESPONSE_SIGNATURE_LABEL}: the covered components, created, keyid and alg.`,
          schema: { type: 'string' },
        },
        Signature: {
          description: `RFC 9421 Ed25519 signature ${RESPONSE_SIGNATURE_LABEL}, verifiable with the JWKS key named by keyid.`,
          schema: { type: 'string' },
        },
        'X-Request-Id': { description: 'The request id, as logged.', schema: { type: 'string' } },
      },
    },
  };
}
