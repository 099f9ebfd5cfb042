// Facts about an A2A agent card, judged against the protocol version the card declares (a2a-card-version.ts).
// The schema of that version (schemas/a2a-agent-card-*.json, transcribed from the A2A specification) decides
// which members are missing or malformed; the facts sort its violations by the rule that reads them.
import schema01 from './schemas/a2a-agent-card-0.1.json' with { type: 'json' };
import schema02 from './schemas/a2a-agent-card-0.2.json' with { type: 'json' };
import schema03 from './schemas/a2a-agent-card-0.3.json' with { type: 'json' };
import schema10 from './schemas/a2a-agent-card-1.0.json' with { type: 'json' };
import { parseContentType } from '../../src/net/content-type.ts';
import { cardSchemaLine, declaredVersion, type CardSchemaLine } from './a2a-card-version.ts';
import { documentValidator, violationText, type SchemaViolation } from './document-schema.ts';
import { asArray, asObject, asString, isHttpsUrl, objectKeys, stringList } from './json-value.ts';

export interface AgentCardFacts {
  interface_style: 'supported-interfaces' | 'top-level-url' | null;
  judged_against: CardSchemaLine | null;
  name: string | null;
  description: string | null;
  version: string | null;
  protocol_version: string | null;
  url: string | null;
  endpoint_urls_count: number | null;
  endpoint_urls_non_https_count: number | null;
  skills_count: number | null;
  skills_incomplete_count: number | null;
  default_input_modes: string[] | null;
  default_output_modes: string[] | null;
  modes_not_media_types: string[];
  security_schemes: string[];
  security_undefined_refs: string[];
  signatures_count: number | null;
  missing_required: string[];
  form_violations: string[];
  extensions: CardExtension[];
}

/** An extension the card declares (AgentExtension), with the AP2 extension's params.roles when it is a list. */
export interface CardExtension {
  uri: string;
  required: boolean | null;
  roles: string[] | null;
}

/** Extensions listed; a card may declare any number, the evidence keeps the first ones. */
const MAX_EXTENSIONS = 20;

const EMPTY: AgentCardFacts = {
  interface_style: null,
  judged_against: null,
  name: null,
  description: null,
  version: null,
  protocol_version: null,
  url: null,
  endpoint_urls_count: null,
  endpoint_urls_non_https_count: null,
  skills_count: null,
  skills_incomplete_count: null,
  default_input_modes: null,
  default_output_modes: null,
  modes_not_media_types: [],
  security_schemes: [],
  security_undefined_refs: [],
  signatures_count: null,
  missing_required: [],
  form_violations: [],
  extensions: [],
};

const VALIDATORS: Record<CardSchemaLine, (doc: unknown) => SchemaViolation[]> = {
  '0.1': documentValidator(schema01, 'AgentCard'),
  '0.2': documentValidator(schema02, 'AgentCard'),
  '0.3': documentValidator(schema03, 'AgentCard'),
  '1.0': documentValidator(schema10, 'AgentCard'),
};

/** Whether a mode is a media type (RFC 9110 section 8.3.1: type "/" subtype, parameters allowed). */
function isMediaType(mode: string): boolean {
  return parseContentType(mode).mediaType !== null;
}

/** Every input and output mode the card names, on the card and on its skills. */
function allModes(card: Record<string, unknown>): string[] {
  const skills = (asArray(card.skills) ?? []).map(asObject);
  const lists = [
    card.defaultInputModes,
    card.defaultOutputModes,
    ...skills.flatMap((s) => [s?.inputModes, s?.outputModes]),
  ];
  return lists.flatMap((l) => stringList(l) ?? []);
}

/** Scheme names a requirement list refers to: 0.x `security` ({name: scopes}), 1.0 `securityRequirements`. */
function referencedSchemes(card: Record<string, unknown>): Set<string> {
  const refs = new Set<string>();
  for (const requirement of [...(asArray(card.security) ?? []), ...(asArray(card.securityRequirements) ?? [])]) {
    const req = asObject(requirement);
    for (const key of objectKeys(asObject(req?.schemes) ?? req)) refs.add(key);
  }
  return refs;
}

/** params.roles as written (its first entries), when it is a list of strings only, as the AP2 schema's items are. */
function rolesOf(value: unknown): string[] | null {
  const list = asArray(value);
  if (list === null || !list.every((r) => typeof r === 'string')) return null;
  return list.slice(0, MAX_EXTENSIONS);
}

/** The declared extensions: capabilities.extensions entries that are objects with a string uri. */
function extensionsOf(card: Record<string, unknown>): CardExtension[] {
  const declared = asArray(asObject(card.capabilities)?.extensions) ?? [];
  const out: CardExtension[] = [];
  for (const entry of declared) {
    const ext = asObject(entry);
    if (ext === null || typeof ext.uri !== 'string') continue;
    out.push({
      uri: ext.uri,
      required: typeof ext.required === 'boolean' ? ext.required : null,
      roles: rolesOf(asObject(ext.params)?.roles),
    });
    if (out.length === MAX_EXTENSIONS) break;
  }
  return out;
}

/** Sorts violations: top-level required members, skills, and the rest. */
function sortViolations(violations: readonly SchemaViolation[]) {
  const skill = /^\/skills\/(\d+)/;
  const missing = violations
    .filter((v) => v.pointer === '/' && v.production === 'AgentCard' && v.reason.startsWith('missing'))
    .map((v) => /"(.*)"/.exec(v.reason)![1]!);
  const skills = new Set(violations.map((v) => skill.exec(v.pointer)?.[1]).filter((i) => i !== undefined));
  const rest = violations.filter(
    (v) =>
      !(v.pointer === '/' && v.production === 'AgentCard' && v.reason.startsWith('missing')) && !skill.test(v.pointer),
  );
  return { missing: missing.sort(), skillsWithViolations: skills.size, rest: rest.map(violationText) };
}

export function inspectAgentCard(json: unknown): AgentCardFacts {
  const card = asObject(json);
  if (!card) return EMPTY;
  const line = cardSchemaLine(card);
  const sorted = sortViolations(VALIDATORS[line](card));
  const interfaces = (asArray(card.supportedInterfaces) ?? []).map(asObject).filter((i) => i !== null);
  const additional = (asArray(card.additionalInterfaces) ?? []).map(asObject).filter((i) => i !== null);
  const urls = [card.url, ...interfaces.map((i) => i.url), ...additional.map((i) => i.url)].filter(
    (u): u is string => typeof u === 'string',
  );
  const schemes = objectKeys(card.securitySchemes);
  // A set, not the list: a card can reference and define tens of thousands of schemes.
  const defined = new Set(schemes);
  const skills = asArray(card.skills);
  const signatures = asArray(card.signatures);
  return {
    interface_style:
      interfaces.length > 0 ? 'supported-interfaces' : typeof card.url === 'string' ? 'top-level-url' : null,
    judged_against: line,
    name: asString(card.name),
    description: asString(card.description),
    version: asString(card.version),
    protocol_version: declaredVersion(card),
    url: asString(interfaces[0]?.url) ?? asString(card.url),
    endpoint_urls_count: urls.length,
    endpoint_urls_non_https_count: urls.filter((u) => !isHttpsUrl(u)).length,
    skills_count: skills ? skills.length : null,
    skills_incomplete_count: skills ? sorted.skillsWithViolations : null,
    default_input_modes: stringList(card.defaultInputModes),
    default_output_modes: stringList(card.defaultOutputModes),
    modes_not_media_types: [...new Set(allModes(card).filter((m) => !isMediaType(m)))].sort(),
    security_schemes: schemes,
    security_undefined_refs: [...referencedSchemes(card)].filter((r) => !defined.has(r)).sort(),
    signatures_count: signatures ? signatures.length : null,
    missing_required: sorted.missing,
    form_violations: sorted.rest,
    extensions: extensionsOf(card),
  };
}
