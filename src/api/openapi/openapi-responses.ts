// The pieces every path of /openapi.json is made of: references to the published schemas, the signed headers
// every answer carries, and the error answers operations share.
export type Json = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const signedHeaders = {
  'Content-Digest': { $ref: '#/components/headers/Content-Digest' },
  'Signature-Input': { $ref: '#/components/headers/Signature-Input' },
  Signature: { $ref: '#/components/headers/Signature' },
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
};

export function errorResponse(description: string, extraHeaders: Json = {}): Json {
  return {
    description,
    headers: { ...signedHeaders, ...extraHeaders },
    content: { 'application/json': { schema: ref('Error') } },
  };
}

export function jsonResponse(description: string, schemaName: string, extraHeaders: Json = {}): Json {
  return {
    description,
    headers: { ...signedHeaders, ...extraHeaders },
    content: { 'application/json': { schema: ref(schemaName) } },
  };
}

export const retryAfter = (what: string) => ({
  'Retry-After': { description: `Seconds until ${what}.`, schema: { type: 'integer', minimum: 1 } },
});

/** Answers every operation can give, whatever its own. */
export function commonErrors(trustProxy: boolean): Json {
  const out: Json = {
    '500': errorResponse('The service failed; the request id in X-Request-Id finds it in the logs.'),
  };
  if (trustProxy)
    out['403'] = errorResponse('The request reached the TLS-terminating proxy over plain HTTP; use https://.');
  return out;
}

export const requestBody = (name: string) => ({
  required: true,
  content: { 'application/json': { schema: ref(name) } },
});

/** Answers every batch and account operation can give: a key that is not valid here. */
export function accountErrors(trustProxy: boolean): Json {
  return {
    '401': errorResponse(
      'Error code unauthorized: no API key, a key that is unknown or revoked, or a payment token sent as one (never accepted in a header).',
      { 'WWW-Authenticate': { description: 'Bearer.', schema: { type: 'string' } } },
    ),
    ...commonErrors(trustProxy),
  };
}
