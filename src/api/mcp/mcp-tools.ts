// The MCP tools: the two operations with their input schemas taken as-is from schemas/api, their output schemas
// bundled from the schemas of the documents they return, and their ScanResult returned as the tool result. A
// caller's mistake (bad input, bad domain, payment, deadline) is a tool result with isError, the REST message
// and the REST Error body (with its code) as structuredContent; only protocol problems become JSON-RPC errors.
// The tools are run by mcp-server.ts, with the MCP SDK; this list is all the manifest and the screening need.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { apiSchema, publishedSchemas } from '../operations/api-schemas.ts';
import { standaloneSchema } from '../openapi/openapi-components.ts';

type ToolInputSchema = Tool['inputSchema'];
type ToolOutputSchema = NonNullable<Tool['outputSchema']>;

/** A request schema as an MCP input schema: the same document without its own $schema/$id. */
function inputSchemaOf(name: 'quickscan-request' | 'fullvalidation-request'): ToolInputSchema {
  const { $schema: _schema, $id: _id, ...rest } = apiSchema(name);
  return rest as ToolInputSchema;
}

/**
 * What a tool's structuredContent may be: its document, or the Error of an isError result. One self-contained
 * schema (no $schema, refs into its own $defs), so a client's validator of any draft can compile it.
 */
function outputSchemaOf(document: 'Report' | 'FullValidationResult', what: string): ToolOutputSchema {
  const sources = publishedSchemas();
  const { $defs, ...root } = standaloneSchema(document, sources);
  const error = standaloneSchema('Error', sources);
  return {
    type: 'object',
    description: `${what}, or for an isError result the Error with its code.`,
    oneOf: [{ $ref: `#/$defs/${document}` }, { $ref: '#/$defs/Error' }],
    $defs: { ...($defs as object), [document]: root, Error: error },
  };
}

export const MCP_TOOLS: Tool[] = [
  {
    name: 'service_quickscan',
    title: 'Quick Scan a domain',
    description:
      'Free, indicative check of whether a domain is ready for AI agents: a verdict, a score and the top findings, from a fast subset of the rules. Returns a readable summary and the canonical JSON report (also as structuredContent).',
    inputSchema: inputSchemaOf('quickscan-request'),
    outputSchema: outputSchemaOf('Report', 'The report'),
    annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  },
  {
    name: 'service_fullvalidation',
    title: 'Full Validation of a domain',
    description:
      'Every rule, a verdict and an Ed25519-signed certificate, paid with one payment_token from the checkout. Repeating the token for the same domain returns the same certificate. Returns a readable summary and the certificate {payload, jws}; structuredContent carries the certificate and its full report.',
    inputSchema: inputSchemaOf('fullvalidation-request'),
    outputSchema: outputSchemaOf('FullValidationResult', 'The certificate and the report it was issued from'),
    annotations: { readOnlyHint: false, openWorldHint: true, idempotentHint: true },
  },
];
