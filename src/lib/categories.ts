// The rule categories as a person reads them: the report page names its groups and gauges with these, never with
// the ids rule files use. Keyed by the rule schema's closed list, so a new category without a name does not compile.
import type { RuleFile } from './schema-types/rule.ts';

export type Category = RuleFile['category'];

export interface CategoryName {
  /** The group's name on the page. */
  name: string;
  /** What its checks cover, in a few words. */
  about: string;
}

export const CATEGORY_NAMES: Record<Category, CategoryName> = {
  dns: { name: 'DNS', about: 'name servers, records, DNSSEC and CAA' },
  email: { name: 'Email authentication', about: 'SPF, DMARC, MTA-STS, TLS reporting and BIMI' },
  tls: { name: 'TLS and certificate', about: 'protocol versions, ciphers and the certificate chain' },
  http: { name: 'HTTPS and responses', about: 'redirects to HTTPS, status codes, CORS and reachability' },
  headers: { name: 'Security headers', about: 'HSTS, CSP, framing, content types and reporting' },
  cookies: { name: 'Cookies', about: 'Secure, HttpOnly and SameSite attributes' },
  content: { name: 'Content for agents', about: 'markdown alternates and what agents are served' },
  metadata: { name: 'Page metadata', about: 'titles, structured data, social cards and the web app manifest' },
  performance: { name: 'Speed and caching', about: 'redirect hops, caching policy and validators' },
  robots: { name: 'robots.txt', about: 'crawler groups, rules and sitemaps in robots.txt' },
  usage: { name: 'AI usage preferences', about: 'Content Signals and usage statements for AI' },
  llms: { name: 'llms.txt', about: 'the llms.txt file and its links' },
  wellknown: { name: 'Well-known files', about: 'security.txt and other /.well-known/ documents' },
  discovery: { name: 'Discovery', about: 'sitemaps and links that let agents find the pages' },
  mcp: { name: 'MCP servers', about: 'MCP server cards, catalogs and endpoints' },
  a2a: { name: 'A2A agent card', about: 'the Agent2Agent card and its skills' },
  agents: { name: 'Agent manifests', about: 'AGENTS.md, agents.json and plugin manifests' },
  api: { name: 'APIs', about: 'the API catalog and OpenAPI descriptions' },
  oauth: { name: 'OAuth and OpenID', about: 'authorization server, protected resource and key set metadata' },
  identity: { name: 'Agent identity', about: 'Web Bot Auth key directories and published JWK sets' },
  commerce: { name: 'Agent payments', about: 'x402 challenges and agent commerce profiles' },
};

/** The name of a category id, or the id itself for one this build does not know (a report from another ruleset). */
export const categoryName = (id: string): CategoryName =>
  (CATEGORY_NAMES as Record<string, CategoryName | undefined>)[id] ?? { name: id, about: '' };
