// The checkout's HTML: plain, semantic pages that read without JavaScript. The one small script only adds copy
// buttons; it and the stylesheet are fixed text, allowed by their hashes in the page's own CSP.
import { createHash } from 'node:crypto';
import type { IssuedToken } from '../../payments/ledger.ts';
import type { TokenMode } from '../../payments/tokens.ts';
import { escapeHtml } from '../../lib/html.ts';

export interface PageContext {
  baseUrl: string;
  priceCents: number;
  currency: string;
  tokenTtlSeconds: number;
  mode: TokenMode;
  /** Origins besides ours the checkout form may lead to (a processor's payment page). */
  formOrigins: readonly string[];
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #57606a; --line: #d0d7de; --accent: #0a58ca; --note: #fff8c5; --note-line: #d4a72c; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9da7b3; --line: #30363d; --accent: #6cb6ff; --note: #2e2a12; --note-line: #bb8009; } }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 46rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
h1 { font-size: 1.9rem; line-height: 1.2; margin: 0 0 .5rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; }
a { color: var(--accent); }
.badge { display: inline-block; padding: .1rem .55rem; border: 1px solid var(--note-line); border-radius: 1rem; background: var(--note); font-size: .85rem; font-weight: 600; }
.note { border-left: .3rem solid var(--note-line); background: var(--note); padding: .75rem 1rem; margin: 1rem 0; }
.price { font-size: 1.5rem; font-weight: 700; }
button { font: inherit; font-weight: 600; padding: .6rem 1.2rem; border-radius: .4rem; border: 1px solid var(--accent); background: var(--accent); color: var(--bg); cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); padding: .3rem .8rem; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 3px; }
code, pre { font: .9rem/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; padding: .9rem 1rem; border: 1px solid var(--line); border-radius: .4rem; }
.token { display: block; word-break: break-all; font-size: 1.05rem; padding: .75rem 1rem; border: 2px solid var(--accent); border-radius: .4rem; }
.muted { color: var(--muted); }
ul { padding-left: 1.25rem; }
`;

const SCRIPT = `
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    const text = document.getElementById(button.dataset.copy).textContent.trim();
    const status = document.getElementById(button.dataset.copy + '-status');
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = button.dataset.done;
    } catch {
      status.textContent = 'Copying is not allowed here: select the text and copy it yourself.';
    }
  });
}
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const STYLE_HASH = hash(STYLE);
const SCRIPT_HASH = hash(SCRIPT);

/** The checkout pages' own policy, narrower than "nothing" only where the page needs it. */
export function checkoutCsp(formOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    `script-src ${SCRIPT_HASH}`,
    `form-action 'self'${formOrigins.map((o) => ` ${o}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function formatPrice(cents: number, currency: string): string {
  const format = new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() });
  return format.format(cents / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

const days = (seconds: number) => Math.round(seconds / 86400);
const dateText = (d: Date) => d.toISOString().slice(0, 10);

function layout(title: string, body: string, extraHead = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${extraHead}<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function testModeBadge(ctx: PageContext): string {
  return ctx.mode === 'test' ? '<p><span class="badge">Test mode</span></p>\n' : '';
}

function testModeNote(ctx: PageContext): string {
  if (ctx.mode !== 'test') return '';
  return `<p class="note" role="note"><strong>Test mode.</strong> This checkout uses the embedded test-mode processor: tokens are issued free, on one click, and no money is taken. They work like paid tokens on this service.</p>`;
}

export function checkoutPage(ctx: PageContext, opts: { cancelled: boolean }): string {
  const price = formatPrice(ctx.priceCents, ctx.currency);
  const button = ctx.mode === 'test' ? 'Get a test token (free)' : `Pay ${price} and get a token`;
  const how =
    ctx.mode === 'test'
      ? 'The button below issues a token at once and shows it on the next page.'
      : 'The button below takes you to Stripe to pay. When the payment is confirmed, the token is shown on the page Stripe sends you back to.';
  return layout(
    'Full Validation: get a payment token',
    `<header>
${testModeBadge(ctx)}<h1>Full Validation</h1>
<p>A signed verdict on whether a domain's web infrastructure is ready for AI agents.</p>
</header>
${opts.cancelled ? '<p class="note" role="status">The payment was cancelled; nothing was charged.</p>' : ''}
${testModeNote(ctx)}
<section aria-labelledby="what">
<h2 id="what">What a Full Validation does</h2>
<ul>
<li>Runs every rule in the catalogue against the domain: DNS, TLS, HTTP headers, well-known files, and the documents agents use to find and call a service.</li>
<li>Returns the report with a certificate signed with the service's Ed25519 key (a detached JWS), which anyone can verify against <a href="/.well-known/jwks.json">the published key set</a>.</li>
<li>Keeps the certificate: it can be fetched again at <code>/api/certificates/{id}</code>, and the domain owner can anchor it in DNS.</li>
</ul>
<p>The free Quick Scan runs a small subset of the rules and needs no token.</p>
</section>
<section aria-labelledby="price">
<h2 id="price">Price</h2>
<p><span class="price">${escapeHtml(price)}</span> per Full Validation.</p>
<ul>
<li>One token pays for one Full Validation of one domain.</li>
<li>If the validation cannot finish (the service failed, or the scan passed its deadline), the token stays unused: try again with it.</li>
<li>Sending the same token again for the same domain returns the same certificate, free.</li>
<li>An unused token expires after ${days(ctx.tokenTtlSeconds)} days.</li>
</ul>
</section>
<section aria-labelledby="buy">
<h2 id="buy">Get a token</h2>
<p>${how}</p>
<form method="post" action="/checkout/session">
<button type="submit">${escapeHtml(button)}</button>
</form>
</section>`,
  );
}

function examples(baseUrl: string, token: string): { rest: string; mcp: string } {
  const args = { domain: 'example.com', payment_token: token };
  const rest = `curl -sS ${baseUrl}/api/fullvalidation \\
  -H 'Content-Type: application/json' \\
  -d '${JSON.stringify(args)}'`;
  const call = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'service_fullvalidation', arguments: args },
  };
  const mcp = `curl -sS ${baseUrl}/mcp \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  -d '${JSON.stringify(call)}'`;
  return { rest, mcp };
}

function copyButton(target: string, label: string, done: string): string {
  return `<button type="button" class="secondary" data-copy="${target}" data-done="${escapeHtml(done)}" hidden>${escapeHtml(label)}</button> <span id="${target}-status" role="status" aria-live="polite"></span>`;
}

export function tokenPage(ctx: PageContext, issued: IssuedToken): string {
  const { rest, mcp } = examples(ctx.baseUrl, issued.token);
  return layout(
    'Your payment token',
    `<header>
${testModeBadge(ctx)}<h1>Your payment token</h1>
</header>
${testModeNote(ctx)}
<section aria-labelledby="token-heading">
<h2 id="token-heading">Token</h2>
<p>It pays for one Full Validation of one domain, and is valid until ${dateText(issued.expiresAt)} (UTC). Keep it like cash: whoever has it can use it. This page is not stored and will not show it again.</p>
<code id="token" class="token">${escapeHtml(issued.token)}</code>
<p>${copyButton('token', 'Copy token', 'Token copied.')}</p>
<p class="muted">Send it in the JSON body as <code>payment_token</code>, never in an Authorization header.</p>
</section>
<section aria-labelledby="rest-heading">
<h2 id="rest-heading">Use it over REST</h2>
<p>Replace <code>example.com</code> with your domain.</p>
<pre><code id="rest-example">${escapeHtml(rest)}</code></pre>
<p>${copyButton('rest-example', 'Copy command', 'Command copied.')}</p>
</section>
<section aria-labelledby="mcp-heading">
<h2 id="mcp-heading">Use it over MCP</h2>
<p>The <code>service_fullvalidation</code> tool on the MCP endpoint <code>${escapeHtml(ctx.baseUrl)}/mcp</code> takes the same arguments. A JSON-RPC <code>tools/call</code>:</p>
<pre><code id="mcp-example">${escapeHtml(mcp)}</code></pre>
<p>${copyButton('mcp-example', 'Copy command', 'Command copied.')}</p>
</section>
<p><a href="/checkout">Back to checkout</a></p>`,
  );
}

export function pendingPage(): string {
  return layout(
    'Confirming your payment',
    `<h1>Confirming your payment</h1>
<p role="status">Stripe has not confirmed the payment to this service yet. This page looks again every 3 seconds; your token appears here as soon as the confirmation arrives.</p>
<p class="muted">Nothing is charged twice by reloading this page.</p>`,
    '<meta http-equiv="refresh" content="3">\n',
  );
}
