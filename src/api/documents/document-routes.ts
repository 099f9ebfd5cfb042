// The published documents: openapi.json, the JWK set, the Web Bot Auth key directory, the MCP manifest,
// security.txt, the guides and the site's agent-facing files. Public, cacheable for a few minutes, readable
// from any origin (agents fetch them cross-site).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../../lib/config.ts';
import { REPO_ROOT } from '../../lib/paths.ts';
import type { SigningKeySource } from '../../signing/key-store.ts';
import type { SigningKey } from '../../signing/keys.ts';
import { guidePage } from '../pages/docs-html.ts';
import { buildMcpManifest } from '../mcp/mcp-manifest.ts';
import { buildOpenApi, OPENAPI_MEDIA_TYPE } from '../openapi/openapi.ts';
import { PAGE_CSP } from '../pages/page-layout.ts';
import { securityTxt } from './security-txt.ts';
import { DIRECTORY_MEDIA_TYPE, directoryKeys, signDirectory } from './signature-directory.ts';
import {
  API_CATALOG_TYPE,
  apiCatalog,
  homeLinks,
  homePage,
  llmsFullTxt,
  llmsTxt,
  robotsTxt,
  sitemapXml,
} from './site-documents.ts';

/** The guides: /docs/<name>.md is markdown; /docs/<name> is HTML for a browser, markdown for anyone else. */
const GUIDES = ['api', 'operations', 'rules'] as const;
const readGuide = (name: string) => readFileSync(path.join(REPO_ROOT, 'docs', `${name}.md`), 'utf8');

/** Browsers ask for the icon with every page they have not cached it for: a week, then revalidated by ETag. */
const FAVICON_MAX_AGE = 7 * 86_400;
let favicon: { body: Buffer; etag: string } | undefined;
function faviconFile(): { body: Buffer; etag: string } {
  if (!favicon) {
    const body = readFileSync(path.join(REPO_ROOT, 'assets', 'favicon.ico'));
    favicon = { body, etag: createHash('sha256').update(body).digest('base64url').slice(0, 27) };
  }
  return favicon;
}

export interface DocumentDeps {
  config: Pick<Config, 'baseUrl' | 'trustProxy' | 'securityTxt'>;
  /** The signing keys: the JWK set is read from them on each request, so a rotation shows at once. */
  signingKeys: Pick<SigningKeySource, 'jwks'>;
  /** The key outgoing probe requests are signed with; null when agent signing is off (no directory then). */
  agentKey: SigningKey | null;
  now?: () => Date;
}

function publish(ctx: Context, type: string, body: unknown): void {
  ctx.set({
    'Cache-Control': 'public, max-age=300',
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
  ctx.type = type;
  ctx.body = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body, null, 2) + '\n';
}

export function documentRoutes(deps: DocumentDeps): Router {
  const now = deps.now ?? (() => new Date());
  const { baseUrl } = deps.config;
  // Built once: they depend only on configuration and the schemas, both fixed at start.
  const openapi = buildOpenApi({ baseUrl, trustProxy: deps.config.trustProxy !== null });
  const manifest = buildMcpManifest(baseUrl);
  // Read and rendered on first use: the catalogue's page takes the better part of a second, which every start
  // would pay, and its markdown is a megabyte a service that never serves it would hold. Each is kept as the
  // bytes sent, one buffer every answer shares: a string body was encoded into a copy of its own for each
  // request (690 kB for the catalogue's page) and digested again (the digest is memoised per buffer).
  const bytes = new Map<string, Buffer>();
  const bytesOf = (key: string, make: () => string) =>
    bytes.get(key) ?? bytes.set(key, Buffer.from(make(), 'utf8')).get(key)!;
  const markdownOf = (name: string) => bytesOf(`${name}.md`, () => readGuide(name));
  const htmlOf = (name: string) => bytesOf(`${name}.html`, () => guidePage(name, markdownOf(name).toString('utf8')));
  const router = new Router();

  router.get('/', (ctx) => {
    ctx.set('Link', homeLinks());
    publish(ctx, 'text/html; charset=utf-8', homePage(baseUrl));
    ctx.set('Content-Security-Policy', PAGE_CSP);
    ctx.set('Referrer-Policy', 'same-origin');
  });
  for (const name of GUIDES) {
    router.get(`/docs/${name}.md`, (ctx) => publish(ctx, 'text/markdown; charset=utf-8', markdownOf(name)));
    router.get(`/docs/${name}`, (ctx) => {
      ctx.vary('Accept');
      // Markdown unless HTML is preferred: agents sending */* (or nothing) keep getting what they always got.
      if (ctx.accepts('text/markdown', 'text/html') !== 'text/html')
        return publish(ctx, 'text/markdown; charset=utf-8', markdownOf(name));
      publish(ctx, 'text/html; charset=utf-8', htmlOf(name));
      ctx.set('Content-Security-Policy', PAGE_CSP);
      ctx.set('Link', `</docs/${name}.md>; rel="alternate"; type="text/markdown"`);
    });
  }
  router.get('/favicon.ico', (ctx) => {
    const { body, etag } = faviconFile();
    ctx.set('Cache-Control', `public, max-age=${FAVICON_MAX_AGE}`);
    ctx.type = 'image/x-icon';
    ctx.etag = etag;
    ctx.status = 200;
    if (ctx.fresh) ctx.status = 304;
    else ctx.body = body;
  });
  router.get('/robots.txt', (ctx) => publish(ctx, 'text/plain; charset=utf-8', robotsTxt(baseUrl)));
  router.get('/sitemap.xml', (ctx) => publish(ctx, 'application/xml; charset=utf-8', sitemapXml(baseUrl)));
  router.get('/llms.txt', (ctx) => publish(ctx, 'text/markdown; charset=utf-8', llmsTxt(baseUrl)));
  router.get('/llms-full.txt', (ctx) =>
    publish(ctx, 'text/markdown; charset=utf-8', llmsFullTxt(baseUrl, markdownOf('api').toString('utf8'))),
  );
  router.get('/.well-known/api-catalog', (ctx) => publish(ctx, API_CATALOG_TYPE, apiCatalog(baseUrl)));

  router.get('/openapi.json', (ctx) => publish(ctx, OPENAPI_MEDIA_TYPE, openapi));
  router.get('/.well-known/jwks.json', async (ctx) =>
    publish(ctx, 'application/jwk-set+json', await deps.signingKeys.jwks()),
  );
  router.get('/.well-known/mcp.json', (ctx) => publish(ctx, 'application/json', manifest));
  router.get('/.well-known/security.txt', (ctx) =>
    publish(ctx, 'text/plain; charset=utf-8', securityTxt(deps.config, now())),
  );
  const agentKey = deps.agentKey;
  if (agentKey) {
    router.get('/.well-known/http-message-signatures-directory', async (ctx) => {
      const at = now();
      publish(ctx, DIRECTORY_MEDIA_TYPE, directoryKeys(agentKey, at));
      await signDirectory(ctx, agentKey, at);
    });
  }
  return router;
}
