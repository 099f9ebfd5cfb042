// An MCP Server Card is judged against the schema version its `$schema` declares, as A2A cards are judged against
// the version they declare. The schema is our transcription of the published one (see its $comment); a card that
// declares a schema URL we hold no transcription of (a date-versioned draft URL, say) is not judged.
import serverCardV1 from './schemas/mcp-server-card-v1.json' with { type: 'json' };
import { documentValidator, violationText } from './document-schema.ts';
import { asObject, asString } from './json-value.ts';
import type { McpDocument } from '../../src/lib/schema-types/observations/agents.ts';

const BY_SCHEMA_URL: Record<
  string,
  { version: NonNullable<McpDocument['judged_against']>; validate: ReturnType<typeof documentValidator> }
> = {
  'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json': {
    version: 'v1',
    validate: documentValidator(serverCardV1, 'ServerCard'),
  },
};

export interface ServerCardJudgement {
  /** The Server Card schema version the document was validated against; null when it declares none we hold. */
  judged_against: McpDocument['judged_against'];
  /** Violations of that schema as `<production> <JSON pointer>: <reason>`; null when not judged. */
  schema_violations: string[] | null;
}

export function judgeServerCard(json: unknown): ServerCardJudgement {
  const declared = asString(asObject(json)?.$schema);
  const schema = declared === null ? undefined : BY_SCHEMA_URL[declared];
  if (!schema) return { judged_against: null, schema_violations: null };
  return { judged_against: schema.version, schema_violations: schema.validate(json).map(violationText) };
}
