// The service's own agent-facing surface beyond the API documents: a home page that links everything,
// robots.txt, llms.txt and llms-full.txt, the RFC 9727 API catalog and a sitemap. What it asks of the sites it
// validates, it publishes itself.
import { escapeHtml } from '../../lib/html.ts';
import { MCP_PATH } from '../mcp/mcp-routes.ts';
import { renderPage } from '../pages/page-layout.ts';
import { scanForm } from '../pages/report-page.ts';
import { SERVICE_INFO } from '../http/service-info.ts';

export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/** The Link header of the home page: where agents find the descriptions. */
export function homeLinks(): string {
  return [
    '</llms.txt>; rel="describedby"; type="text/markdown"',
    '</.well-known/api-catalog>; rel="api-catalog"',
    '</openapi.json>; rel="service-desc"; type="application/openapi+json"',
    '</docs/api>; rel="service-doc"; type="text/markdown"',
  ].join(', ');
}

/** The home page: the Quick Scan form for people (it works without JavaScript), the descriptions for programs. */
export function homePage(baseUrl: string): string {
  const links: [string, string][] = [
    [`${baseUrl}/docs/api`, 'API guide: REST, MCP, errors, limits, response signatures, certificates'],
    [`${baseUrl}/docs/rules`, 'Rule catalogue: every check, why it matters and how to fix it'],
    [`${baseUrl}/openapi.json`, 'OpenAPI 3.1 description'],
    [`${baseUrl}/.well-known/mcp.json`, `MCP server manifest (endpoint ${baseUrl}${MCP_PATH})`],
    [`${baseUrl}/.well-known/jwks.json`, 'The key that signs certificates and responses'],
    [`${baseUrl}/llms.txt`, 'llms.txt'],
  ];
  return renderPage({
    title: SERVICE_INFO.title,
    head: `<link rel="describedby" type="text/markdown" href="/llms.txt">
<link rel="service-desc" type="application/openapi+json" href="/openapi.json">
`,
    body: `<h1>${escapeHtml(SERVICE_INFO.title)}</h1>
<p>${escapeHtml(SERVICE_INFO.description)}</p>
${scanForm()}
<section aria-labelledby="programs">
<h2 id="programs">For programs and agents</h2>
<p>Quick Scan: <code>POST ${escapeHtml(baseUrl)}/api/quickscan</code> with <code>{"domain": "example.com"}</code>. Full Validation: <code>POST ${escapeHtml(baseUrl)}/api/fullvalidation</code> with a <code>payment_token</code> from <a href="/checkout">the checkout</a>.</p>
<ul>
${links.map(([href, text]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`).join('\n')}
</ul>
</section>`,
  });
}

/** Every crawler and agent is welcome; the API answers only POST, so there is nothing to keep them from. */
export function robotsTxt(baseUrl: string): string {
  const named = [
    'GPTBot',
    'OAI-SearchBot',
    'ChatGPT-User',
    'ClaudeBot',
    'Claude-SearchBot',
    'Claude-User',
    'PerplexityBot',
    'Perplexity-User',
    'Google-Extended',
    'CCBot',
  ];
  return [
    '# Domain Validation Service: crawlers and agents, AI ones included, may fetch everything published here.',
    ...named.flatMap((ua) => [`User-agent: ${ua}`, 'Allow: /', '']),
    'User-agent: *',
    'Allow: /',
    'Content-Signal: search=yes, ai-input=yes, ai-train=yes',
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export function llmsTxt(baseUrl: string): string {
  return `# ${SERVICE_INFO.title}

> ${SERVICE_INFO.description} The same two operations are offered over REST and as MCP tools.

Call \`POST ${baseUrl}/api/quickscan\` with \`{"domain": "example.com"}\` for a free Quick Scan, or the MCP tool \`service_quickscan\` at ${baseUrl}${MCP_PATH}. A Full Validation (\`POST ${baseUrl}/api/fullvalidation\`, tool \`service_fullvalidation\`) needs a \`payment_token\` in the body.

## API

- [API guide](${baseUrl}/docs/api.md): requests, responses, errors, limits, MCP, response signatures and certificates
- [Operations guide](${baseUrl}/docs/operations.md): configuration, TLS, proxies, metrics, logs and shutdown
- [OpenAPI description](${baseUrl}/openapi.json): the REST contract, generated from the request and response schemas
- [MCP manifest](${baseUrl}/.well-known/mcp.json): the MCP endpoint, its transport and tools
- [JWK set](${baseUrl}/.well-known/jwks.json): the Ed25519 key that signs certificates and every API response

## Optional

- [Full text for models](${baseUrl}/llms-full.txt): this file followed by the whole API guide
- [security.txt](${baseUrl}/.well-known/security.txt): where to report a vulnerability
`;
}

export function llmsFullTxt(baseUrl: string, apiGuide: string): string {
  return `${llmsTxt(baseUrl)}\n---\n\n${apiGuide}`;
}

/** RFC 9727 API catalog: a linkset naming the API, its description and its documentation. */
export function apiCatalog(baseUrl: string): Record<string, unknown> {
  return {
    linkset: [
      {
        anchor: `${baseUrl}/api`,
        'service-desc': [{ href: `${baseUrl}/openapi.json`, type: 'application/openapi+json' }],
        'service-doc': [{ href: `${baseUrl}/docs/api`, type: 'text/markdown' }],
        'service-meta': [{ href: `${baseUrl}/.well-known/mcp.json`, type: 'application/json' }],
      },
    ],
  };
}

export function sitemapXml(baseUrl: string): string {
  const pages = [
    '/',
    '/docs/api.md',
    '/docs/operations.md',
    '/docs/rules.md',
    '/llms.txt',
    '/llms-full.txt',
    '/openapi.json',
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${pages.map((p) => `  <url><loc>${baseUrl}${p}</loc></url>`).join('\n')}
</urlset>
`;
}
