// The frame of the service's pages for people (home, guides, reports, certificates): one stylesheet, no script,
// a policy that allows exactly that stylesheet (by its hash), images from this origin and forms posted here.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { escapeHtml } from '../../lib/html.ts';
import { SERVICE_INFO } from '../http/service-info.ts';

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #57606a; --line: #d0d7de; --accent: #0a58ca; --soft: #f6f8fa; --pass: #116329; --fail: #a40e26; --warn: #7d4e00; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9da7b3; --line: #30363d; --accent: #6cb6ff; --soft: #161b22; --pass: #56d364; --fail: #ff7b72; --warn: #e3b341; } }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header.site, main, footer.site { max-width: 52rem; margin: 0 auto; padding: 0 1.25rem; }
header.site { padding-top: 1rem; }
header.site nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; padding: 0; margin: 0; }
main { padding-bottom: 3rem; }
footer.site { border-top: 1px solid var(--line); padding-top: 1rem; padding-bottom: 2rem; color: var(--muted); font-size: .9rem; }
h1 { font-size: 1.9rem; line-height: 1.2; margin: 1.5rem 0 .5rem; }
h2 { font-size: 1.35rem; margin: 2rem 0 .5rem; }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .4rem; }
a { color: var(--accent); }
h1 a.header-anchor, h2 a.header-anchor, h3 a.header-anchor, h4 a.header-anchor { color: inherit; text-decoration: none; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 3px; }
code, pre { font: .9rem/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; padding: .9rem 1rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--soft); }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
label { display: block; font-weight: 600; margin-bottom: .3rem; }
input[type=text] { font: inherit; padding: .5rem .7rem; width: min(100%, 26rem); border: 1px solid var(--muted); border-radius: .4rem; color: var(--fg); background: var(--bg); }
button { font: inherit; font-weight: 600; padding: .5rem 1.1rem; border-radius: .4rem; border: 1px solid var(--accent); background: var(--accent); color: var(--bg); cursor: pointer; }
.muted { color: var(--muted); }
.verdict { font-size: 1.35rem; font-weight: 700; }
.outcome-pass, .verdict-CERTIFIED { color: var(--pass); }
.outcome-fail, .verdict-NOT_CONFORMANT { color: var(--fail); }
.outcome-error, .verdict-INCOMPLETE { color: var(--warn); }
.finding { border: 1px solid var(--line); border-radius: .4rem; padding: .2rem 1rem .6rem; margin: .8rem 0; }
.finding h4 { margin: .6rem 0 .3rem; font-size: 1rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
svg.chart { width: 100%; height: auto; max-width: 40rem; display: block; margin: 1rem 0; }
svg.chart .grid { stroke: var(--line); stroke-width: 1; }
svg.chart .axis { fill: var(--muted); font-size: 12px; }
svg.chart .score { fill: none; stroke: var(--accent); stroke-width: 2; }
svg.chart .verdict-CERTIFIED { fill: var(--pass); }
svg.chart .verdict-NOT_CONFORMANT { fill: var(--fail); }
svg.chart .verdict-INCOMPLETE { fill: var(--warn); }
.notice { border-left: .3rem solid var(--accent); background: var(--soft); padding: .6rem 1rem; margin: 1rem 0; }
.overall { display: flex; align-items: center; gap: 1.25rem; margin: 1rem 0; }
.overall p { margin: 0; }
svg.gauge { width: 4.5rem; height: 4.5rem; display: block; }
svg.gauge-large { width: 7rem; height: 7rem; flex: none; }
svg.gauge .gauge-track { fill: var(--soft); stroke: var(--line); stroke-width: 8; }
svg.gauge .gauge-arc { fill: none; stroke-width: 8; stroke-linecap: round; }
svg.gauge .gauge-value { fill: var(--fg); font: 700 28px system-ui, sans-serif; }
svg.gauge-poor .gauge-arc { stroke: var(--fail); }
svg.gauge-fair .gauge-arc { stroke: var(--warn); }
svg.gauge-good .gauge-arc { stroke: var(--pass); }
svg.gauge-none .gauge-value { fill: var(--muted); }
ul.gauges { list-style: none; padding: 0; margin: 1rem 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(8.5rem, 1fr)); gap: 1rem .75rem; }
ul.gauges a { display: flex; flex-direction: column; align-items: center; text-align: center; text-decoration: none; color: var(--fg); }
ul.gauges a:hover .gauge-name { text-decoration: underline; }
.gauge-name { font-weight: 600; font-size: .95rem; margin-top: .3rem; }
.gauge-note { font-size: .85rem; }
table.glance { width: 100%; }
table.glance caption { text-align: left; caption-side: top; padding-bottom: .4rem; }
table.glance th[scope=row] { font-weight: 400; }
table.glance td.result { white-space: nowrap; }
table.glance code { font-size: .85rem; }
pre.evidence { margin: .3rem 0 .6rem; }
ul.coverage { padding-left: 1.2rem; }
ul.coverage ul { font-size: .92rem; }
ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: .3rem 1.25rem; padding: 0; margin: 0 0 1rem; font-size: .92rem; }
ul.legend svg { width: 1rem; height: 1rem; vertical-align: -.15rem; margin-right: .35rem; }
ul.legend .score { fill: none; stroke: var(--accent); stroke-width: 2; }
ul.legend .verdict-CERTIFIED { fill: var(--pass); }
ul.legend .verdict-NOT_CONFORMANT { fill: var(--fail); }
ul.legend .verdict-INCOMPLETE { fill: var(--warn); }
`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;

/** The pages' own policy: the stylesheet by its hash, badges from here, forms to here, nothing else. */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src ${STYLE_HASH}`,
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export interface PageParts {
  title: string;
  /** The page's HTML inside <main>, already escaped where it holds text. */
  body: string;
  description?: string;
  /** Extra <head> elements (links to alternates), already escaped. */
  head?: string;
}

const NAV: [string, string][] = [
  ['/', 'Home'],
  ['/docs/api', 'API guide'],
  ['/docs/rules', 'Rules'],
  ['/checkout', 'Full Validation'],
];

export function renderPage(parts: PageParts): string {
  const description = parts.description ?? SERVICE_INFO.description;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="icon" href="/favicon.ico" sizes="16x16 32x32">
${parts.head ?? ''}<style>${STYLE}</style>
</head>
<body>
<header class="site">
<nav aria-label="Site">
<ul>
${NAV.map(([href, text]) => `<li><a href="${href}">${escapeHtml(text)}</a></li>`).join('\n')}
</ul>
</nav>
</header>
<main>
${parts.body}
</main>
<footer class="site">
<p>${escapeHtml(SERVICE_INFO.title)} ${escapeHtml(SERVICE_INFO.version)}. Programs: <a href="/openapi.json">OpenAPI</a>, <a href="/.well-known/mcp.json">MCP</a>, <a href="/llms.txt">llms.txt</a>.</p>
</footer>
</body>
</html>
`;
}

/** Sends a page with its policy. Forms on it post here, so the referrer must name this origin (see checkout). */
export function sendPage(ctx: Context, html: string, status = 200): void {
  ctx.status = status;
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}
