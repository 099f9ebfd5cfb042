// Facts about an A2A agent card. A2A 1.0 moved the endpoint into `supportedInterfaces[]` (url, protocolBinding,
// protocolVersion); cards from 0.3 and earlier carry top-level `url`, `preferredTransport` and `protocolVersion`
// and are still common, so both are read and the style found is recorded.
import { asArray, asObject, asString, isHttpsUrl, objectKeys, stringList } from './json-value.ts';

export interface AgentCardFacts {
  interface_style: 'supported-interfaces' | 'top-level-url' | null;
  name: string | null;
  description: string | null;
  version: string | null;
  protocol_version: string | null;
  url: string | null;
  endpoint_urls_count: number | null;
  endpoint_urls_non_https_count: number | null;
  capabilities_present: boolean;
  skills_count: number | null;
  skills_incomplete_count: number | null;
  default_input_modes: string[] | null;
  default_output_modes: string[] | null;
  security_schemes: string[];
  security_undefined_refs: string[];
  signatures_count: number | null;
  missing_required: string[];
}

const EMPTY: AgentCardFacts = {
  interface_style: null,
  name: null,
  description: null,
  version: null,
  protocol_version: null,
  url: null,
  endpoint_urls_count: null,
  endpoint_urls_non_https_count: null,
  capabilities_present: false,
  skills_count: null,
  skills_incomplete_count: null,
  default_input_modes: null,
  default_output_modes: null,
  security_schemes: [],
  security_undefined_refs: [],
  signatures_count: null,
  missing_required: [],
};

/** Members every card needs (A2A 1.0); the endpoint is checked separately as either shape may carry it. */
const REQUIRED = [
  'capabilities',
  'defaultInputModes',
  'defaultOutputModes',
  'description',
  'name',
  'skills',
  'version',
];

function skillComplete(item: unknown): boolean {
  const skill = asObject(item);
  return (
    skill !== null &&
    typeof skill.id === 'string' &&
    typeof skill.name === 'string' &&
    typeof skill.description === 'string' &&
    Array.isArray(skill.tags)
  );
}

export function inspectAgentCard(json: unknown): AgentCardFacts {
  const card = asObject(json);
  if (!card) return EMPTY;
  const interfaces = (asArray(card.supportedInterfaces) ?? []).map(asObject).filter((i) => i !== null);
  const additional = (asArray(card.additionalInterfaces) ?? []).map(asObject).filter((i) => i !== null);
  const first = interfaces[0] ?? null;
  const urls = [card.url, ...interfaces.map((i) => i.url), ...additional.map((i) => i.url)].filter(
    (u): u is string => typeof u === 'string',
  );
  const style = interfaces.length > 0 ? 'supported-interfaces' : typeof card.url === 'string' ? 'top-level-url' : null;

  const missing = REQUIRED.filter((key) => card[key] === undefined || card[key] === null);
  if (style === null) missing.push('supportedInterfaces');

  const schemes = objectKeys(card.securitySchemes);
  const refs = new Set<string>();
  for (const requirement of asArray(card.security) ?? []) {
    // 0.3 cards list {scheme: scopes}; 1.0 wraps them as {schemes: {scheme: {list}}}.
    const req = asObject(requirement);
    const named = asObject(req?.schemes) ?? req;
    for (const key of objectKeys(named)) refs.add(key);
  }
  const skills = asArray(card.skills);
  const signatures = asArray(card.signatures);

  return {
    interface_style: style,
    name: asString(card.name),
    description: asString(card.description),
    version: asString(card.version),
    protocol_version: asString(first?.protocolVersion) ?? asString(card.protocolVersion),
    url: asString(first?.url) ?? asString(card.url),
    endpoint_urls_count: urls.length,
    endpoint_urls_non_https_count: urls.filter((u) => !isHttpsUrl(u)).length,
    capabilities_present: asObject(card.capabilities) !== null,
    skills_count: skills ? skills.length : null,
    skills_incomplete_count: skills ? skills.filter((s) => !skillComplete(s)).length : null,
    default_input_modes: stringList(card.defaultInputModes),
    default_output_modes: stringList(card.defaultOutputModes),
    security_schemes: schemes,
    security_undefined_refs: [...refs].filter((r) => !schemes.includes(r)).sort(),
    signatures_count: signatures ? signatures.length : null,
    missing_required: missing.sort(),
  };
}
