// The eighteen checks of Cloudflare's isitagentready (https://isitagentready.com/llms-full.txt: its scan API's
// check keys and categories), each with the rules of this catalogue that answer it. docs/rules.md prints this
// table for auditors; src/engine/readiness-level.ts turns the rules' outcomes into the anchor's statuses and level.

export type AnchorCategory = 'discoverability' | 'contentAccessibility' | 'botAccessControl' | 'discovery' | 'commerce';

export interface AnchorCheck {
  /** The anchor's key for the check. */
  id: string;
  category: AnchorCategory;
  title: string;
  /** Counted by the anchor; the others read "neutral" where a site has nothing to show. */
  scored: boolean;
  /** Rules whose pass says the thing is there. */
  found: string[];
  /**
   * Rules that judge it once it is there, by id or by `prefix.*` (then only the prefix's required rules): one
   * failing makes the check fail. They do not apply where the thing is absent.
   */
  judged: string[];
}

/** Whether a `judged` entry names this rule: by its id, or by `prefix.*` when it is one of the prefix's required rules. */
export function judges(entry: string, rule: { id: string; level: string }): boolean {
  return entry.endsWith('.*') ? rule.level === 'required' && rule.id.startsWith(entry.slice(0, -1)) : rule.id === entry;
}

export const ANCHOR = {
  name: 'isitagentready',
  url: 'https://isitagentready.com/',
} as const;

export const ANCHOR_CHECKS: readonly AnchorCheck[] = [
  {
    id: 'robotsTxt',
    category: 'discoverability',
    title: 'robots.txt',
    scored: true,
    found: ['robots.txt.present'],
    judged: ['robots.txt.parses_cleanly', 'robots.txt.size_within_limit', 'robots.txt.utf8_encoded'],
  },
  {
    id: 'sitemap',
    category: 'discoverability',
    title: 'Sitemap',
    scored: true,
    found: ['discovery.sitemap.present'],
    judged: ['discovery.sitemap.*'],
  },
  {
    id: 'linkHeaders',
    category: 'discoverability',
    title: 'Link headers',
    scored: true,
    found: ['discovery.link_header.agent_relations'],
    judged: ['discovery.link_header.*'],
  },
  {
    id: 'markdownNegotiation',
    category: 'contentAccessibility',
    title: 'Markdown content negotiation',
    scored: true,
    found: ['content.markdown.negotiation'],
    judged: ['content.markdown.variant_not_html'],
  },
  {
    id: 'robotsTxtAiRules',
    category: 'botAccessControl',
    title: 'AI bot rules in robots.txt',
    scored: true,
    found: ['robots.txt.ai_rules_explicit'],
    judged: [],
  },
  {
    id: 'contentSignals',
    category: 'botAccessControl',
    title: 'Content Signals',
    scored: true,
    found: ['usage.content_signal.present'],
    judged: ['usage.content_signal.valid'],
  },
  {
    id: 'webBotAuth',
    category: 'botAccessControl',
    title: 'Web Bot Auth key directory',
    scored: false,
    found: ['identity.wba_directory.published'],
    judged: ['identity.wba_directory.*'],
  },
  {
    id: 'mcpServerCard',
    category: 'discovery',
    title: 'MCP server card',
    scored: true,
    // The server card (SEP-1649), its earlier mcp.json location, or a catalog of servers.
    found: ['mcp.server_card.parses', 'mcp.manifest.parses', 'mcp.catalog.parses'],
    judged: ['mcp.server_card.*', 'mcp.manifest.*', 'mcp.catalog.*'],
  },
  {
    id: 'a2aAgentCard',
    category: 'discovery',
    title: 'A2A agent card',
    scored: true,
    found: ['a2a.card.published'],
    // The anchor asks for a discoverable, valid card, not a signed one: a2a.card.signature_verifies is recommended,
    // so `a2a.card.*` (required rules only) leaves it out, and an unverifiable signature does not lower the level.
    judged: ['a2a.card.*'],
  },
  {
    id: 'agentSkills',
    category: 'discovery',
    title: 'Agent Skills index',
    scored: true,
    found: ['agents.skills_index.published'],
    judged: ['agents.skills_index.*'],
  },
  {
    id: 'webMcp',
    category: 'discovery',
    title: 'WebMCP declarative tools',
    scored: false,
    // Static HTML shows only the declarative API; tools registered from script are out of a scan's sight.
    found: ['mcp.webmcp.tools_declared'],
    judged: ['mcp.webmcp.tool_names_valid', 'mcp.webmcp.tools_described'],
  },
  {
    id: 'apiCatalog',
    category: 'discovery',
    title: 'API catalog (RFC 9727)',
    scored: true,
    found: ['api.catalog.parses'],
    judged: ['api.catalog.*'],
  },
  {
    id: 'oauthDiscovery',
    category: 'discovery',
    title: 'OAuth / OpenID Connect discovery',
    scored: true,
    // On the site itself, or on the authorization servers its protected resource metadata names.
    found: [
      'oauth.authorization_server.parses',
      'oauth.openid_configuration.parses',
      'oauth.named_servers.metadata_published',
    ],
    judged: ['oauth.authorization_server.*', 'oauth.openid_configuration.*', 'oauth.named_servers.*'],
  },
  {
    id: 'oauthProtectedResource',
    category: 'discovery',
    title: 'OAuth protected resource metadata (RFC 9728)',
    scored: true,
    found: ['oauth.protected_resource.parses'],
    judged: ['oauth.protected_resource.*'],
  },
  {
    id: 'x402',
    category: 'commerce',
    title: 'x402 payment challenges',
    scored: false,
    found: ['commerce.x402.version_known'],
    judged: ['commerce.x402.*'],
  },
  {
    id: 'ucp',
    category: 'commerce',
    title: 'Universal Commerce Protocol profile',
    scored: false,
    found: ['commerce.ucp.parses'],
    judged: ['commerce.ucp.*'],
  },
  {
    id: 'acp',
    category: 'commerce',
    title: 'Agentic Commerce Protocol discovery',
    scored: false,
    found: ['commerce.acp.parses'],
    judged: ['commerce.acp.*'],
  },
  {
    id: 'ap2',
    category: 'commerce',
    title: 'Agent Payments Protocol (AP2)',
    scored: false,
    found: ['commerce.ap2.declared'],
    judged: ['commerce.ap2.roles_valid'],
  },
];

/**
 * What a rung asks for: an anchor check that passes, a rule of this catalogue that passes (`label` names it in a
 * report), or at least `atLeast` of a group of them. Both the level's logic (src/engine/readiness-level.ts) and
 * docs/rules.md read the ladder from here.
 */
export type Prerequisite = { check: string } | { rule: string; label: string } | PrerequisiteGroup;

export interface PrerequisiteGroup {
  atLeast: number;
  of: readonly Prerequisite[];
}

const INTEGRATION: readonly Prerequisite[] = [
  { check: 'mcpServerCard' },
  { check: 'a2aAgentCard' },
  { check: 'agentSkills' },
  { check: 'apiCatalog' },
];

/** The anchor's levels, each named as it names them, with what a site needs beyond the level below. */
export const ANCHOR_LEVELS = [
  { level: 0, name: 'Not Ready', needs: { atLeast: 0, of: [] } },
  {
    level: 1,
    name: 'Basic Web Presence',
    needs: { atLeast: 2, of: [{ check: 'robotsTxt' }, { check: 'sitemap' }, { check: 'linkHeaders' }] },
  },
  {
    level: 2,
    name: 'Bot-Aware',
    needs: { atLeast: 2, of: [{ check: 'robotsTxtAiRules' }, { check: 'contentSignals' }] },
  },
  { level: 3, name: 'Agent-Readable', needs: { atLeast: 1, of: [{ check: 'markdownNegotiation' }] } },
  { level: 4, name: 'Agent-Integrated', needs: { atLeast: 1, of: INTEGRATION } },
  {
    level: 5,
    name: 'Agent-Native',
    needs: {
      atLeast: 2,
      of: [
        { check: 'webBotAuth' },
        { atLeast: INTEGRATION.length, of: INTEGRATION },
        // Authentication metadata: OAuth discovery, or an auth.md for agents.
        { atLeast: 1, of: [{ check: 'oauthDiscovery' }, { rule: 'agents.auth_md.published', label: 'auth.md' }] },
      ],
    },
  },
] as const satisfies readonly { level: number; name: string; needs: PrerequisiteGroup }[];

/** How a report names a prerequisite it misses: a check by its id, a group by what it asks. */
export function prerequisiteName(p: Prerequisite): string {
  if ('check' in p) return p.check;
  if ('rule' in p) return p.label;
  const names = p.of.map(prerequisiteName);
  return p.atLeast === p.of.length && p.of.length > 1 ? `all of ${names.join(', ')}` : names.join(' or ');
}
