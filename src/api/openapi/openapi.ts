// /openapi.json, generated at start from the API schemas and the certificate schema (never hand-copied), so
// the published description cannot drift from what ajv enforces. Every status a route can answer is listed.
import { publishedSchemas } from '../operations/api-schemas.ts';
import { ACCEPTED_ENCODINGS, BATCH_BODY_LIMIT, BODY_LIMIT } from '../http/json-body.ts';
import { MCP_PATH } from '../mcp/mcp-routes.ts';
import { RESPONSE_SIGNATURE_FIELDS, RESPONSE_SIGNATURE_LABEL } from '../http/response-signing.ts';
import { componentSchemas } from './openapi-components.ts';
import { monitorPaths } from './monitor-paths.ts';
import {
  accountErrors,
  commonErrors,
  errorResponse,
  jsonResponse,
  ref,
  requestBody,
  retryAfter,
  signedHeaders,
  type Json,
} from './openapi-responses.ts';
import { SERVICE_INFO } from '../http/service-info.ts';

const OPENAPI_VERSION = '1.0.0';

/** The media type /openapi.json is served with, as the API catalog and the home page's links advertise it. */
export const OPENAPI_MEDIA_TYPE = 'application/openapi+json';

/** Answers every scan operation can give: its body, its deadline, and an instance that takes no new scans. */
function scanErrors(trustProxy: boolean): Json {
  return {
    '400': errorResponse(
      'The body is not valid JSON (or does not decompress as its Content-Encoding says), has unknown fields, or the domain is invalid (a scheme, path, port, IP literal, bad label, too long, no public suffix, or a special-use name such as .onion or .local).',
    ),
    '413': errorResponse(`The request body is larger than ${BODY_LIMIT}.`),
    '415': errorResponse(
      `The body is not sent as application/json, or its Content-Encoding is not one the service decodes (${ACCEPTED_ENCODINGS.join(', ')}, or none).`,
      { 'Accept-Encoding': { description: 'The accepted encodings.', schema: { type: 'string' } } },
    ),
    '503': errorResponse(
      'Error code busy: the service runs as many scans as it can (DVS_MAX_SCANS), or this instance is shutting down; nothing was charged (a payment token is left untouched). Retry after Retry-After seconds.',
      retryAfter('the client should retry'),
    ),
    '504': errorResponse('The scan did not finish within its deadline; nothing was charged.'),
    ...commonErrors(trustProxy),
  };
}

/** The other methods on a POST-only path: the router answers them with 405 and Allow: POST. */
const POST_ONLY =
  'Any other method answers 405 (Error body, Allow: POST); OPTIONS answers 200 with Allow; a method the service implements on no path (TRACE, PROPFIND...) answers 501 (Error body).';

function scanPaths(trustProxy: boolean): Json {
  return {
    '/api/quickscan': {
      description: POST_ONLY,
      post: {
        operationId: 'quickscan',
        tags: ['scans'],
        summary: 'Quick Scan a domain (free)',
        description:
          'A fast subset of the rules: an indicative verdict, a score and the top findings. Results are cached per domain; scans that really run are rate-limited per client.',
        requestBody: requestBody('QuickScanRequest'),
        responses: {
          '200': jsonResponse(
            'The result: a summary and the canonical JSON report, and the report as structuredContent; isError is true (and structuredContent absent) when the domain could not be judged (for example it does not resolve).',
            'ScanResult',
            {
              'Content-Encoding': {
                description:
                  "br or gzip when the request's Accept-Encoding allows one (RFC 9110 section 12.5.3; br first on equal weight), absent for the plain bytes. Content-Digest is then over the coded bytes, and the signature also covers content-encoding.",
                schema: { type: 'string', enum: ['br', 'gzip'] },
              },
              Vary: {
                description: 'Accept-Encoding: the answer is chosen by it.',
                schema: { type: 'string' },
              },
              'X-Cache': {
                description: 'hit when the result came from the cache, miss when a scan ran.',
                schema: { type: 'string', enum: ['hit', 'miss'] },
              },
              'X-Verified-Agent': {
                description:
                  "Present when the request's Web Bot Auth signature verified: the origin of the caller's key directory, whose own Quick Scan budget was counted (see /docs/api#signing-your-requests-web-bot-auth).",
                schema: { type: 'string', format: 'uri' },
              },
            },
          ),
          ...scanErrors(trustProxy),
          '429': errorResponse('Too many quick scans from this client.', retryAfter('the client may scan again')),
        },
      },
    },
    '/api/fullvalidation': {
      description: POST_ONLY,
      post: {
        operationId: 'fullvalidation',
        tags: ['scans'],
        summary: 'Full Validation of a domain (paid), answered with a signed certificate',
        description:
          'Every rule, a verdict and a certificate signed with Ed25519 (detached JWS). One payment token pays for one validation; repeating it for the same domain returns the same certificate. The token goes in the body, never in an Authorization header.',
        requestBody: requestBody('FullValidationRequest'),
        responses: {
          '200': jsonResponse(
            'The result: a summary and the canonical JSON of the certificate, and the certificate as structuredContent; isError is true (and structuredContent absent) when the domain could not be judged, and then the token is not used.',
            'ScanResult',
          ),
          ...scanErrors(trustProxy),
          '402': errorResponse(
            'payment_token is missing (or was sent in an Authorization header), unknown, expired, used for another domain, or in use by a running validation.',
          ),
        },
      },
    },
  };
}

const certificateId = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The certificate id (payload.id), e.g. dvc_…',
  schema: { type: 'string', maxLength: 128 },
};

/** What a relying party asks after issue: whether the certificate is still current, and its evidence. */
function certificateLifecyclePaths(trustProxy: boolean): Json {
  const notIssued = errorResponse('No certificate with this id was issued by this service.');
  return {
    '/api/certificates/{id}/status': {
      get: {
        operationId: 'certificateStatus',
        tags: ['certificates'],
        summary: 'Whether a certificate is still current: valid, expired, superseded or revoked',
        description:
          'The status now: valid, expired (past expires_at), superseded (a newer certificate for the domain exists, named in superseded_by) or revoked by the operator (with revoked_at and the reason). Not cached: it changes.',
        parameters: [certificateId],
        responses: {
          '200': jsonResponse('The status (not cached: it changes).', 'CertificateStatus'),
          '404': notIssued,
          ...commonErrors(trustProxy),
        },
      },
    },
    '/api/certificates/{id}/evidence': {
      get: {
        operationId: 'certificateEvidence',
        tags: ['certificates'],
        summary: 'The observations a certificate was judged on: the canonical JSON whose SHA-256 is evidence_digest',
        description:
          'The very bytes the certificate was judged on, kept while the certificate is valid. Check their SHA-256 against payload.evidence_digest and judge them again with the ruleset the certificate names (dvs verify --reevaluate).',
        parameters: [certificateId],
        responses: {
          '200': {
            description: 'The canonical observations document, byte for byte.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          '404': notIssued,
          '410': errorResponse('The certificate expired, and its evidence is no longer kept, or it was revoked.'),
          ...commonErrors(trustProxy),
        },
      },
    },
  };
}

const domainParameter = {
  name: 'domain',
  in: 'path',
  required: true,
  description: 'The domain, e.g. example.com (normalised as the scans normalise it).',
  schema: { type: 'string', maxLength: 253 },
};

/** A domain's Full Validations over time, newest first, a page at a time. */
function historyPaths(trustProxy: boolean): Json {
  return {
    '/api/domains/{domain}/history': {
      get: {
        operationId: 'domainHistory',
        tags: ['certificates'],
        summary: "A domain's Full Validations, newest first, with the rules that changed between consecutive ones",
        description:
          'Every Full Validation the ledger keeps for the domain: when, verdict, score, ruleset version, the certificate and its status now, and the rules whose outcome changed since the validation before. Pages are read by cursor: give next as before for the next, older page. Not cached: statuses change.',
        parameters: [
          domainParameter,
          {
            name: 'limit',
            in: 'query',
            description: 'Entries per page (default 30).',
            schema: { type: 'integer', minimum: 1, maximum: 100 },
          },
          {
            name: 'before',
            in: 'query',
            description: 'The next cursor of the previous page.',
            schema: { type: 'string', maxLength: 64 },
          },
        ],
        responses: {
          '200': jsonResponse('A page of the history (empty for a domain never validated).', 'DomainHistory'),
          '400': errorResponse('The domain is not a public registrable name, or limit or before is not valid.'),
          ...commonErrors(trustProxy),
        },
      },
    },
  };
}

const batchId = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The batch id, e.g. bat_…',
  schema: { type: 'string', maxLength: 64 },
};

const noSuchBatch = () => errorResponse('Error code not_found: this account has no batch with this id.');

function batchSubmitPath(trustProxy: boolean): Json {
  return {
    post: {
      operationId: 'submitBatch',
      tags: ['batches'],
      summary: 'Submit many domains at once (Quick Scans or paid Full Validations)',
      description:
        "Each entry is checked as /api/quickscan checks a domain: an invalid one is rejected on its own (listed in rejected), a repeated one is scanned once. The batch counts against the account's daily quota; it runs on every instance, interleaved with other accounts' batches, at most the account's concurrency at once.",
      security: [{ apiKey: [] }],
      requestBody: requestBody('BatchRequest'),
      responses: {
        '202': jsonResponse('Accepted: the batch, and the entries not taken.', 'BatchAccepted', {
          Location: { description: 'The batch: /api/batches/{id}.', schema: { type: 'string' } },
        }),
        '400': errorResponse('The body is not a batch request, or no entry in it is a valid domain.'),
        '413': errorResponse(
          `Error code batch_too_large: more domains than the account's max-batch (nothing was enqueued), or a body larger than ${BATCH_BODY_LIMIT}.`,
        ),
        '415': errorResponse('The body is not sent as application/json.'),
        '429': errorResponse(
          "Error code quota_exceeded: the batch is larger than what is left of the account's daily quota; nothing was enqueued.",
          retryAfter('the quota starts again (00:00 UTC)'),
        ),
        ...accountErrors(trustProxy),
      },
    },
  };
}

function batchPaths(trustProxy: boolean): Json {
  return {
    '/api/batches': batchSubmitPath(trustProxy),
    '/api/batches/{id}': {
      get: {
        operationId: 'batchStatus',
        tags: ['batches'],
        summary: 'Where a batch stands',
        description: 'Its status and counts: done items have a verdict, failed ones an error in their result.',
        security: [{ apiKey: [] }],
        parameters: [batchId],
        responses: {
          '200': jsonResponse('The batch.', 'BatchStatus'),
          '404': noSuchBatch(),
          ...accountErrors(trustProxy),
        },
      },
      delete: {
        operationId: 'cancelBatch',
        tags: ['batches'],
        summary: 'Cancel a batch: items not started are dropped, their payment tokens stay unspent',
        description:
          'Items not started get no result and their tokens are never reserved; items running now finish and keep their results.',
        security: [{ apiKey: [] }],
        parameters: [batchId],
        responses: {
          '200': jsonResponse('Cancelled: the batch as it stands (items running now still finish).', 'BatchStatus'),
          '404': noSuchBatch(),
          '409': errorResponse('Error code conflict: the batch is done or cancelled already.'),
          ...accountErrors(trustProxy),
        },
      },
    },
    '/api/batches/{id}/results': {
      get: {
        operationId: 'batchResults',
        tags: ['batches'],
        summary: 'The finished items, streamed as NDJSON (or CSV), in the order they finished',
        description:
          'One line per finished item. Each line carries a cursor: ?after=<cursor> resumes after it. Results stream from the database a page at a time while the batch runs; ask again later for items that finish after.',
        security: [{ apiKey: [] }],
        parameters: [
          batchId,
          {
            name: 'after',
            in: 'query',
            required: false,
            description: 'The cursor of the last line already read.',
            schema: { type: 'string', pattern: '^[0-9]{1,9}$' },
          },
        ],
        responses: {
          '200': {
            description:
              'NDJSON (application/x-ndjson, the default), one BatchResult per line; or CSV for Accept: text/csv, with the columns cursor, domain, verdict, score, ruleset, finished_at, certificate_id, error_code, error_message.',
            content: {
              'application/x-ndjson': { schema: ref('BatchResult') },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          '400': errorResponse('after is not a cursor.'),
          '404': noSuchBatch(),
          ...accountErrors(trustProxy),
        },
      },
    },
    '/api/account': {
      get: {
        operationId: 'account',
        tags: ['batches'],
        summary: "The API key's account: its limits and today's use",
        description: 'The daily quota restarts at 00:00 UTC; max_batch and concurrency hold across every instance.',
        security: [{ apiKey: [] }],
        responses: { '200': jsonResponse('The account.', 'Account'), ...accountErrors(trustProxy) },
      },
    },
  };
}

const webhookId = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The webhook endpoint id, e.g. ep_…',
  schema: { type: 'string', maxLength: 64 },
};

const noSuchWebhook = () => errorResponse('Error code not_found: this account has no webhook endpoint with this id.');

function webhookPaths(trustProxy: boolean): Json {
  return {
    '/api/webhooks': {
      post: {
        operationId: 'registerWebhook',
        tags: ['webhooks'],
        summary: "Register an https endpoint for the account's events (Standard Webhooks)",
        description:
          'Deliveries follow the Standard Webhooks specification: headers webhook-id (the same on every retry), webhook-timestamp and webhook-signature (v1, HMAC-SHA256 over id.timestamp.body with the secret answered here), body {type, timestamp, data}. Only a 2xx answer counts; other answers are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h; 410 Gone disables the endpoint. Each attempt has 15 s, and redirects are not followed.',
        security: [{ apiKey: [] }],
        requestBody: requestBody('WebhookRequest'),
        responses: {
          '201': {
            description: 'Registered: the endpoint and its secret, shown this once.',
            headers: { Location: { description: 'The endpoint: /api/webhooks/{id}.', schema: { type: 'string' } } },
            content: {
              'application/json': { schema: { allOf: [ref('WebhookEndpoint'), ref('WebhookSecret')] } },
            },
          },
          '400': errorResponse(
            'The body is not a webhook request, or the URL resolves to an address deliveries may not reach.',
          ),
          ...accountErrors(trustProxy),
        },
      },
      get: {
        operationId: 'listWebhooks',
        tags: ['webhooks'],
        summary: "The account's webhook endpoints",
        description: 'Secrets are not listed: each is shown once, when it is made.',
        security: [{ apiKey: [] }],
        responses: { '200': jsonResponse('The endpoints, oldest first.', 'WebhookList'), ...accountErrors(trustProxy) },
      },
    },
  };
}

function webhookItemPaths(trustProxy: boolean): Json {
  return {
    '/api/webhooks/{id}': {
      get: {
        operationId: 'webhook',
        tags: ['webhooks'],
        summary: 'One webhook endpoint (disabled_at is set once it answered 410 Gone)',
        description: 'A disabled endpoint receives nothing more; register the URL again to resume.',
        security: [{ apiKey: [] }],
        parameters: [webhookId],
        responses: {
          '200': jsonResponse('The endpoint.', 'WebhookEndpoint'),
          '404': noSuchWebhook(),
          ...accountErrors(trustProxy),
        },
      },
      delete: {
        operationId: 'deleteWebhook',
        tags: ['webhooks'],
        summary: 'Remove a webhook endpoint: nothing more is delivered to it',
        description: 'Deliveries not yet made are dropped with it, and its delivery record goes too.',
        security: [{ apiKey: [] }],
        parameters: [webhookId],
        responses: { '204': { description: 'Removed.' }, '404': noSuchWebhook(), ...accountErrors(trustProxy) },
      },
    },
    '/api/webhooks/{id}/secret': {
      post: {
        operationId: 'rotateWebhookSecret',
        tags: ['webhooks'],
        summary: 'Rotate the signing secret: deliveries carry signatures with both until previous_secret_until',
        description:
          'The webhook-signature header then lists one v1 signature per secret (space-separated), so receivers can switch secrets without missing a delivery. The overlap is DVS_WEBHOOK_SECRET_OVERLAP (24 h by default).',
        security: [{ apiKey: [] }],
        parameters: [webhookId],
        responses: {
          '200': jsonResponse('The new secret, shown this once.', 'WebhookSecret'),
          '404': noSuchWebhook(),
          ...accountErrors(trustProxy),
        },
      },
    },
    '/api/webhooks/{id}/deliveries': {
      get: {
        operationId: 'webhookDeliveries',
        tags: ['webhooks'],
        summary: "The endpoint's delivery attempts, newest first",
        description:
          'One entry per attempt: the webhook-id (the same on every attempt of one event), the event type, when, which attempt, and the status the receiver answered or why it answered none.',
        security: [{ apiKey: [] }],
        parameters: [webhookId],
        responses: {
          '200': jsonResponse('The last 100 attempts.', 'WebhookDeliveries'),
          '404': noSuchWebhook(),
          ...accountErrors(trustProxy),
        },
      },
    },
  };
}

const treeSize = (name: string, description: string, required: boolean) => ({
  name,
  in: 'query',
  required,
  description,
  schema: { type: 'integer', minimum: required ? 1 : 0 },
});

/** The certificate transparency log (RFC 9162 section 2.1 hashing): its signed head and its proofs. */
function logPaths(trustProxy: boolean): Json {
  const badSize = errorResponse(
    'A size is not a non-negative integer, is larger than the log, or the sizes are out of order.',
  );
  const immutable = 'Cached for a day when a size is given (a head or a proof of a given size never changes).';
  return {
    '/log/sth': {
      get: {
        operationId: 'logTreeHead',
        tags: ['log'],
        summary: 'The signed tree head of the certificate transparency log',
        description: `The log's size, root hash (RFC 9162 section 2.1), the time it was first signed, and a detached JWS (typ dvs-tree-head+jws) over the canonical JSON of {root_hash, timestamp, tree_size}. The current head unless tree_size asks for an earlier one. ${immutable}`,
        parameters: [treeSize('tree_size', 'An earlier size of the log to get the head of.', false)],
        responses: {
          '200': jsonResponse('The signed tree head.', 'TreeHead'),
          '400': badSize,
          ...commonErrors(trustProxy),
        },
      },
    },
    '/log/proof/{id}': {
      get: {
        operationId: 'logInclusionProof',
        tags: ['log'],
        summary: "A certificate's inclusion proof against a signed tree head",
        description: `The leaf is the certificate's canonical JSON {payload, jws} (the body GET /api/certificates/{id} serves); the path (RFC 9162 section 2.1.3) leads from SHA-256(0x00 || leaf) to the root hash of tree_head, the current head unless tree_size asks for another. ${immutable}`,
        parameters: [certificateId, treeSize('tree_size', 'The size of the head to prove inclusion in.', false)],
        responses: {
          '200': jsonResponse('The inclusion proof and the signed head it leads to.', 'LogInclusion'),
          '400': badSize,
          '404': errorResponse('No certificate with this id is in the log.'),
          ...commonErrors(trustProxy),
        },
      },
    },
    '/log/consistency': {
      get: {
        operationId: 'logConsistencyProof',
        tags: ['log'],
        summary: 'The consistency proof between two sizes of the log',
        description:
          'Proves the log of size `to` extends the log of size `from` (RFC 9162 section 2.1.4): check it against the root hashes of two signed heads (dvs log audit).',
        parameters: [
          treeSize('from', 'The older size, at least 1.', true),
          treeSize('to', 'The newer size, at most the current size.', true),
        ],
        responses: {
          '200': jsonResponse('The consistency proof.', 'LogConsistency'),
          '400': badSize,
          ...commonErrors(trustProxy),
        },
      },
    },
  };
}

function certificatePath(trustProxy: boolean): Json {
  return {
    description:
      'Any other method answers 405 (Error body, Allow: HEAD, GET); OPTIONS answers 200 with Allow; a method the service implements on no path answers 501 (Error body).',
    get: {
      operationId: 'certificate',
      tags: ['certificates'],
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
        ...commonErrors(trustProxy),
      },
    },
  };
}

function mcpPath(): Json {
  const rpc = (description: string) => ({
    description,
    content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message.' } } },
  });
  const notAllowed = {
    description:
      'Not allowed: the MCP server is stateless, so it opens no server-to-client stream and has no session to end.',
    headers: { ...signedHeaders, Allow: { description: 'The allowed method: POST.', schema: { type: 'string' } } },
    content: { 'application/json': { schema: ref('Error') } },
  };
  const forbidden = rpc(
    'A JSON-RPC error: the request carries an Origin that is neither this service nor an allowed one.',
  );
  const unoffered = (operationId: string, what: string) => ({
    operationId,
    tags: ['mcp'],
    summary: 'Not offered (stateless server)',
    description: `${what} needs a session; this stateless server has none and answers 405.`,
    responses: { '403': forbidden, '405': notAllowed },
  });
  return {
    post: {
      operationId: 'mcp',
      tags: ['mcp'],
      summary: 'MCP (JSON-RPC 2.0 over Streamable HTTP, stateless)',
      description:
        'Tools service_quickscan and service_fullvalidation, with the request schemas as input schemas and the ScanResult structuredContent schemas as output schemas. Send Accept: application/json, text/event-stream. A tools/call whose _meta carries a progressToken is answered as an event stream with notifications/progress as probes finish. Every method but POST answers 405 with Allow: POST; OPTIONS answers 200 with the same Allow.',
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message.' } } },
      },
      responses: {
        '200': {
          description:
            'The JSON-RPC response, or (for a call with a progressToken) an event stream of progress notifications ending with it.',
          content: {
            'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message.' } },
            'text/event-stream': {
              schema: { type: 'string', description: 'Server-sent events, one JSON-RPC message each.' },
            },
          },
        },
        '202': { description: 'A notification or a response was accepted; there is nothing to answer.' },
        '400': rpc(
          'A JSON-RPC error: -32700 when the body is not JSON, -32600 when it is JSON but not a JSON-RPC 2.0 message.',
        ),
        '403': forbidden,
        '406': rpc('A JSON-RPC error: the Accept header does not list both application/json and text/event-stream.'),
        '413': rpc(`A JSON-RPC error: the message is larger than ${BODY_LIMIT}.`),
        '415': rpc(
          `A JSON-RPC error: the message is not sent as application/json, or its Content-Encoding is not one of ${ACCEPTED_ENCODINGS.join(', ')}.`,
        ),
        '500': rpc('A JSON-RPC error: the service failed; it has been logged.'),
      },
    },
    get: unoffered('mcpStream', 'A server-to-client stream'),
    delete: unoffered('mcpEndSession', 'Ending a session'),
  };
}

export function buildOpenApi(opts: { baseUrl: string; trustProxy: boolean }): Json {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: SERVICE_INFO.title,
      version: OPENAPI_VERSION,
      summary: 'Is a domain ready for AI agents?',
      description: `${SERVICE_INFO.description} Every response carries a Content-Digest (RFC 9530) and an RFC 9421 signature (label ${RESPONSE_SIGNATURE_LABEL}, components ${RESPONSE_SIGNATURE_FIELDS.join(' ')}) made with the key published at ${opts.baseUrl}/.well-known/jwks.json. See ${opts.baseUrl}/docs/api.`,
      contact: { name: SERVICE_INFO.title, url: `${opts.baseUrl}/docs/api` },
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: opts.baseUrl }],
    security: [],
    tags: [
      { name: 'scans', description: 'Quick Scan and Full Validation.' },
      { name: 'certificates', description: 'Certificates issued by Full Validations.' },
      { name: 'log', description: 'The certificate transparency log.' },
      { name: 'batches', description: 'Many domains at once, for accounts with an API key (dvs accounts create).' },
      { name: 'webhooks', description: "Signed events (Standard Webhooks) about an account's work." },
      { name: 'monitors', description: 'Domains Full-Validated on a schedule for an account, paid by prepaid tokens.' },
      { name: 'mcp', description: 'The same operations as MCP tools.' },
    ],
    paths: {
      ...scanPaths(opts.trustProxy),
      '/api/certificates/{id}': certificatePath(opts.trustProxy),
      ...certificateLifecyclePaths(opts.trustProxy),
      ...historyPaths(opts.trustProxy),
      ...logPaths(opts.trustProxy),
      ...batchPaths(opts.trustProxy),
      ...webhookPaths(opts.trustProxy),
      ...webhookItemPaths(opts.trustProxy),
      ...monitorPaths(opts.trustProxy),
      [MCP_PATH]: mcpPath(),
    },
    components: {
      schemas: componentSchemas(publishedSchemas()),
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An account API key (dvs_key_…) from `dvs accounts create`, for the batch API. A payment token is never a bearer credential.',
        },
      },
      headers: {
        'Content-Digest': {
          description: 'RFC 9530 digest of the body as sent (after any content coding): sha-256=:<base64>:.',
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
