// The manifests facet: agent manifests and indexes (ai-plugin.json, agents.json, agent skills, AI catalog,
// AGENTS.md, auth.md).
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import { described, json, text } from './discovery-document.ts';
import { inspectEntryCatalog } from './inspect-catalogs.ts';
import { inspectAiPlugin, inspectSkillsIndex } from './inspect-manifests.ts';

export async function collectManifests(f: DocumentFetcher) {
  const [aiPlugin, agentsJson, skills, aiCatalog, agentsMd, authMd] = await Promise.all([
    json(f, '/.well-known/ai-plugin.json'),
    json(f, '/.well-known/agents.json'),
    json(f, '/.well-known/agent-skills/index.json'),
    json(f, '/.well-known/ai-catalog.json'),
    text(f, '/AGENTS.md'),
    text(f, '/auth.md'),
  ]);
  return {
    ai_plugin: described(aiPlugin, inspectAiPlugin(aiPlugin.json)),
    agents_json: described(agentsJson, {}),
    skills_index: described(skills, inspectSkillsIndex(skills.json)),
    ai_catalog: described(aiCatalog, inspectEntryCatalog(aiCatalog.json)),
    agents_md: agentsMd,
    auth_md: authMd,
  };
}
