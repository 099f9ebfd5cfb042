// Facts about the smaller agent manifests: the legacy OpenAI plugin manifest, the Agent Skills discovery index
// and the UCP business profile. Each reader takes parsed JSON of any shape.
import { asArray, asObject, asString, isHttpsUrl, objectKeys } from './json-value.ts';

export interface AiPluginFacts {
  schema_version: string | null;
  name_for_model: string | null;
  description_for_model: string | null;
  api_url: string | null;
}

export function inspectAiPlugin(json: unknown): AiPluginFacts {
  const doc = asObject(json);
  return {
    schema_version: asString(doc?.schema_version),
    name_for_model: asString(doc?.name_for_model),
    description_for_model: asString(doc?.description_for_model),
    api_url: asString(asObject(doc?.api)?.url),
  };
}

export interface SkillsIndexFacts {
  schema_url: string | null;
  skills_count: number | null;
  skills_incomplete_count: number | null;
}

const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A skill entry as the discovery RFC (v0.2) describes it: name, type, description, url and a sha256 digest. */
function skillComplete(item: unknown): boolean {
  const skill = asObject(item);
  if (!skill) return false;
  const name = asString(skill.name);
  const description = asString(skill.description);
  return (
    name !== null &&
    name.length <= 64 &&
    SKILL_NAME.test(name) &&
    (skill.type === 'skill-md' || skill.type === 'archive') &&
    description !== null &&
    description.length > 0 &&
    description.length <= 1024 &&
    typeof skill.url === 'string' &&
    typeof skill.digest === 'string' &&
    DIGEST.test(skill.digest)
  );
}

export function inspectSkillsIndex(json: unknown): SkillsIndexFacts {
  const doc = asObject(json);
  const skills = asArray(doc?.skills);
  return {
    schema_url: asString(doc?.$schema),
    skills_count: skills ? skills.length : null,
    skills_incomplete_count: skills ? skills.filter((s) => !skillComplete(s)).length : null,
  };
}

export interface UcpFacts {
  version: string | null;
  services_count: number | null;
  capabilities_count: number | null;
  non_https_endpoints_count: number;
}

/** Collects every `endpoint` string under the services map (their nesting differs between UCP releases). */
function endpoints(value: unknown, out: string[]): void {
  const obj = asObject(value);
  const list = asArray(value);
  if (list) for (const item of list) endpoints(item, out);
  if (!obj) return;
  for (const [key, v] of Object.entries(obj)) {
    if (key === 'endpoint' && typeof v === 'string') out.push(v);
    else endpoints(v, out);
  }
}

export function inspectUcpProfile(json: unknown): UcpFacts {
  const ucp = asObject(asObject(json)?.ucp);
  const services = ucp?.services;
  const found: string[] = [];
  endpoints(services, found);
  const capabilities = ucp?.capabilities;
  return {
    version: asString(ucp?.version),
    services_count: asObject(services) ? objectKeys(services).length : null,
    capabilities_count:
      asArray(capabilities)?.length ?? (asObject(capabilities) ? objectKeys(capabilities).length : null),
    non_https_endpoints_count: found.filter((u) => !isHttpsUrl(u)).length,
  };
}
