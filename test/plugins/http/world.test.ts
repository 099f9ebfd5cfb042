// The http probe against the fixture internet: each http-* site breaks one thing, good.test breaks nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateRule } from '../../../src/engine/evaluate.ts';
import { catalogue, rulesReading, OBSERVED_AT, worldContext } from '../world-probe.ts';
import type { Outcome, ProbeContext } from '../../../src/engine/types.ts';
import { collectHttp } from '../../../plugins/http/index.ts';
import { foreignOrigin, notFoundPath } from '../../../plugins/http/urls.ts';
import type { HttpObservations } from '../../../plugins/http/types.ts';
import { useWorld, type SharedWorld } from '../../suite/world.ts';

const rules = rulesReading('http');

/** Rule outcomes of one site's observations, by rule id. */
function outcomes(domain: string, http: HttpObservations): Record<string, Outcome> {
  const doc = {
    target: { domain, observed_at: OBSERVED_AT },
    probes: { http: { status: 'ok' as const, ms: 1 } },
    http,
  };
  return Object.fromEntries(rules.map((r) => [r.id, evaluateRule(r, doc).outcome]));
}

function failing(domain: string, http: HttpObservations): string[] {
  return Object.entries(outcomes(domain, http))
    .filter(([, o]) => o !== 'pass' && o !== 'not_applicable')
    .map(([id, o]) => `${id}: ${o}`)
    .sort();
}

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});
const seen = new Map<string, HttpObservations>();

function context(needs: (p: string) => boolean = () => true): ProbeContext {
  return worldContext(world.env, needs);
}

async function scan(domain: string): Promise<HttpObservations> {
  const cached = seen.get(domain);
  if (cached) return cached;
  const out = await collectHttp(domain, context());
  expect(catalogue().schemas.validate('http', out, 'complete')).toBeNull();
  seen.set(domain, out);
  return out;
}

describe('http probe in the fixture world', () => {
  it('good.test: redirects, security headers, page facts', async () => {
    const o = await scan('good.test');
    expect(o.redirect).toMatchObject({
      error: null,
      first_status: 301,
      first_location_scheme: 'https',
      first_location_same_host: true,
      final_scheme: 'https',
      final_status: 200,
      redirects: 1,
      loop: false,
      downgrade: false,
    });
    expect(o.response).toMatchObject({
      status: 200,
      content_type: 'text/html',
      charset: 'utf-8',
      content_encoding: 'gzip',
      truncated: false,
    });
    expect(o.response!.cache_control?.directives).toEqual(['max-age']);
    expect(o.security_headers!.hsts).toMatchObject({
      count: 1,
      valid: true,
      max_age: 63072000,
      include_subdomains: true,
      preload: true,
      parse_errors: [],
    });
    expect(o.security_headers!.csp.policies[0]).toMatchObject({
      script_elem: { directive: 'script-src', sources: ["'self'"], inline_allowed: false },
      object: { directive: 'object-src', sources: ["'none'"], inline_allowed: null },
      report_to: ['default'],
      syntax_errors: [],
    });
    expect(o.security_headers!.reporting_endpoints).toEqual({
      raw: 'default="https://good.test/csp-reports"',
      parse_error: null,
      endpoints: [{ name: 'default', url: 'https://good.test/csp-reports' }],
    });
    expect(o.security_headers).toMatchObject({
      x_content_type_options: 'nosniff',
      x_frame_options: 'deny',
      referrer_policy: 'strict-origin-when-cross-origin',
    });
    expect(o.cookies).toEqual({ count: 0, items: [] });
    expect(o.html).toMatchObject({
      parsed: true,
      title: 'Good Test: a well-kept example site',
      h1_count: 1,
      mount_point: null,
    });
    expect(o.html!.text_chars).toBeGreaterThanOrEqual(1000);
    expect(o.markdown!.alternate).toMatchObject({ status: 200, content_type: 'text/markdown', looks_like_html: false });
    expect(o.markdown!.index_md).toMatchObject({ status: 200, looks_like_html: false });
    expect(o.not_found).toMatchObject({ path: notFoundPath('good.test'), status: 404, same_body_as_root: false });
    expect(o.canonical).toMatchObject({ same_site: true, fetched: true, status: 200, redirects: 0 });
    expect(o.cors).toMatchObject({ origin_sent: foreignOrigin('good.test'), status: 200, acao: null, acac: null });
    expect(o.www).toMatchObject({ error: null, first_location_scheme: 'https', final_host: 'good.test' });
    expect(o.timing!.samples_ms).toHaveLength(3);
  });

  it('collects only the facets the run needs', async () => {
    const out = await collectHttp(
      'good.test',
      context((p) => p === 'http.redirect' || p === 'http.security_headers'),
    );
    expect(Object.keys(out).sort()).toEqual(['redirect', 'security_headers']);
  });

  it('http-no-redirect: plain HTTP serves the page', async () => {
    const o = await scan('http-no-redirect.test');
    expect(o.redirect).toMatchObject({ first_status: 200, first_location: null, final_scheme: 'http', redirects: 0 });
  });

  it('http-no-hsts: HTTPS without security headers', async () => {
    const o = await scan('http-no-hsts.test');
    expect(o.security_headers!.hsts).toMatchObject({ count: 0, max_age: null });
    expect(o.security_headers).toMatchObject({
      x_content_type_options: null,
      x_frame_options: null,
      csp: { policies: [], report_only: [] },
    });
  });

  it('http-weak-headers: present but weak headers are parsed as such', async () => {
    const o = await scan('http-weak-headers.test');
    expect(o.redirect!.first_status).toBe(302);
    expect(o.security_headers!.hsts).toMatchObject({
      count: 2,
      valid: true,
      max_age: 86400,
      include_subdomains: false,
    });
    expect(o.security_headers!.csp.policies[0]).toMatchObject({
      script_elem: {
        directive: 'script-src',
        sources: ['*', "'unsafe-inline'", 'http://cdn.example'],
        inline_allowed: true,
      },
      script: { directive: 'script-src' },
      object: { directive: 'default-src', sources: ['*', "'unsafe-inline'", "'unsafe-eval'", 'data:'] },
      duplicate_directives: ['img-src'],
    });
    expect(o.security_headers!.csp.policies[0]!.sources).toEqual(
      expect.arrayContaining(['http:', 'http://cdn.example']),
    );
    expect(o.security_headers).toMatchObject({
      x_frame_options: 'allow-from https://partner.example',
      x_xss_protection: '1; mode=block',
      deprecated: ['expect-ct'],
      server: {
        raw: 'Apache/2.4.41 (Ubuntu)',
        products: [{ name: 'Apache', version: '2.4.41' }],
        comments: ['Ubuntu'],
        parse_error: null,
      },
      disclosure: ['x-powered-by'],
      referrer_policy: 'unsafe-url',
    });
    expect(o.security_headers!.permissions_policy.parse_error).not.toBeNull();
  });

  it('http-bad-cookies: every cookie attribute is observed', async () => {
    const o = await scan('http-bad-cookies.test');
    expect(o.cookies!.items.map((c) => [c.name, c.secure, c.http_only, c.prefix, c.path, c.domain])).toEqual([
      ['__Host-prefs', true, false, '__Host-', '/settings', 'http-bad-cookies.test'],
      ['sessionid', false, false, null, '/', null],
      ['tracker', true, false, null, null, null],
    ]);
    expect(o.cookies!.items.find((c) => c.name === 'tracker')).toMatchObject({
      same_site: 'none',
      lifetime_s: 315360000,
      on_final_response: true,
    });
    expect(o.response!.cache_control?.directives).toContain('public');
  });

  it('http-real-headers: valid real-world forms are read as valid, hidden controls left out', async () => {
    const o = await scan('http-real-headers.test');
    expect(o.security_headers!.hsts).toMatchObject({
      valid: true,
      max_age: 63072000,
      include_subdomains: true,
      preload: true,
    });
    expect(o.security_headers!.csp.policies[0]!.script_elem.inline_allowed).toBe(false);
    expect(o.security_headers!.server.products).toEqual([{ name: 'AmazonS3', version: null }]);
    expect(o.html).toMatchObject({ controls: 3, controls_unnamed: 0, controls_not_rendered: 5 });
  });

  it('http-spa-shell: an empty mount point and no text', async () => {
    const o = await scan('http-spa-shell.test');
    expect(o.html).toMatchObject({ parsed: true, mount_point: 'root', mount_point_empty: true, body_elements: 1 });
    expect(o.html!.text_chars).toBeLessThan(100);
  });

  it('http-no-metadata: nothing in the head', async () => {
    const o = await scan('http-no-metadata.test');
    expect(o.html).toMatchObject({
      parsed: true,
      title: null,
      lang: null,
      meta_description: null,
      canonical: [],
      document_mode: 'quirks',
    });
    expect(o.canonical).toMatchObject({ url: null, fetched: false });
  });

  it('http-soft-404: unknown paths answer with the home page', async () => {
    const o = await scan('http-soft-404.test');
    expect(o.not_found).toMatchObject({ status: 200, same_body_as_root: true, redirected_to_root: false });
  });

  it('http-cors-null: the null origin is trusted with credentials', async () => {
    const o = await scan('http-cors-null.test');
    expect(o.cors).toMatchObject({ null_origin_acao: 'null', null_origin_acac: 'true', acao: 'null' });
  });

  it('good.test: the manifest the page links is published and every member kept', async () => {
    const o = await scan('good.test');
    const origin = new URL(o.response!.chain.url).origin;
    expect(o.manifest).toMatchObject({
      link: `${origin}/manifest.webmanifest`,
      on_site: true,
      published: true,
      document: { status: 200, content_type: 'application/manifest+json' },
      json: 'object',
      name: 'Good Test',
      start_url: `${origin}/`,
      id: `${origin}/`,
      scope: `${origin}/`,
      display: 'standalone',
      icons: [{ src: `${origin}/logo.svg`, sizes: ['any'], type: 'image/svg+xml', purpose: ['any'] }],
      icons_declared: 1,
      ignored: [],
    });
  });

  it('http-bad-manifest: each ignored member is named with the step that ignored it', async () => {
    const o = await scan('http-bad-manifest.test');
    expect(o.manifest).toMatchObject({ published: true, json: 'object', name: null, short_name: null });
    expect(o.manifest!.ignored).toEqual([
      { member: 'start_url', reason: 'cross_origin', value: 'https://app.example.net/start' },
      { member: 'scope', reason: 'start_url_outside', value: '/app/' },
      { member: 'display', reason: 'unknown_mode', value: 'app' },
      { member: 'icons[1].sizes', reason: 'invalid_sizes', value: '192' },
      { member: 'icons[2].purpose', reason: 'unknown_purpose', value: 'splash' },
    ]);
    expect(o.manifest).toMatchObject({ display: 'browser', icons_declared: 3 });
    expect(o.manifest!.icons).toHaveLength(1);
  });

  it('http-manifest-missing: a linked manifest that answers 404 is not published', async () => {
    const o = await scan('http-manifest-missing.test');
    expect(o.manifest).toMatchObject({ on_site: true, published: false, document: { status: 404 }, json: null });
  });

  it('a page that links no manifest fetches none', async () => {
    const o = await scan('http-no-metadata.test');
    expect(o.manifest).toMatchObject({ link: null, on_site: null, published: null, document: null });
  });

  it('an unreachable domain gives error facts, not a throw', async () => {
    const o = await collectHttp('does-not-exist.test', context());
    expect(o.redirect).toMatchObject({ error: 'dns_nxdomain', hops: [], first_status: null });
    expect(o.response).toMatchObject({ status: null, headers: {}, chain: { error: 'dns_nxdomain' } });
    expect(o.html?.parsed).toBe(false);
    expect(catalogue().schemas.validate('http', o, 'complete')).toBeNull();
  });
});

describe('http rules over the fixture world', () => {
  it('good.test fails no rule', async () => {
    expect(failing('good.test', await scan('good.test'))).toEqual([]);
  });

  it.each([
    [
      'http-no-redirect.test',
      [
        'http.redirect.http_to_https',
        'http.redirect.ends_on_https',
        'headers.hsts.preload_ready',
        'http.redirect.www_upgrades',
      ],
    ],
    [
      'http-no-hsts.test',
      [
        'headers.hsts.present',
        'headers.content_type_options.nosniff',
        'headers.framing.restricted',
        'headers.csp.present',
        'headers.cross_origin.embedder_policy',
        'headers.cross_origin.opener_policy',
        'headers.cross_origin.resource_policy',
        'headers.permissions_policy.present',
      ],
    ],
    [
      'http-weak-headers.test',
      [
        'headers.hsts.max_age_sufficient',
        'headers.hsts.single_header',
        'headers.csp.inline_scripts_blocked',
        'headers.csp.script_sources_restricted',
        'headers.csp.secure_sources',
        'headers.csp.well_formed',
        'headers.framing.restricted',
        'headers.legacy.xss_filter_off',
        'headers.legacy.deprecated_absent',
        'headers.disclosure.server_version',
        'headers.disclosure.technology',
        'headers.permissions_policy.valid',
        'headers.referrer_policy.strict',
        'http.redirect.permanent',
        'headers.csp.base_uri_restricted',
        'headers.csp.form_action',
        'headers.csp.frame_ancestors',
        'headers.csp.object_src_none',
        'headers.csp.reporting',
        'headers.hsts.include_subdomains',
        'headers.hsts.max_age_one_year',
        'headers.hsts.preload_ready',
      ],
    ],
    [
      'http-bad-cookies.test',
      [
        'cookies.secure',
        'cookies.session_httponly',
        'cookies.prefix.host_valid',
        'cookies.response_not_shared_cacheable',
        'cookies.lifetime_bounded',
        'cookies.samesite_declared',
      ],
    ],
    [
      'http-spa-shell.test',
      [
        'content.raw_html.text_present',
        'content.raw_html.not_spa_shell',
        'content.landmarks.main',
        'content.headings.single_h1',
        'content.landmarks.nav',
        'content.raw_html.text_ratio',
        'mcp.webmcp.tools_declared',
      ],
    ],
    [
      'http-no-metadata.test',
      [
        'metadata.title.present',
        'metadata.description.present',
        'metadata.lang.declared',
        'metadata.canonical.single_absolute',
        'metadata.jsonld.present',
        'content.images.alt_text',
        'content.controls.named',
        'content.document.standards_mode',
        'content.llms.linked',
        'content.markdown.alternate_advertised',
        'metadata.feed.advertised',
        'metadata.open_graph.core',
        'metadata.twitter.card',
        'metadata.viewport.present',
        'mcp.webmcp.tools_declared',
      ],
    ],
    [
      'http-bad-reporting.test',
      [
        'headers.hsts.present',
        'headers.hsts.max_age_sufficient',
        'headers.hsts.max_age_one_year',
        'headers.hsts.include_subdomains',
        'headers.hsts.preload_ready',
        'headers.csp.inline_scripts_blocked',
        'headers.csp.well_formed',
        'headers.csp.report_only_reports',
        'headers.reporting.endpoints_usable',
        'headers.reporting.report_to_usable',
        'headers.reporting.nel_usable',
      ],
    ],
    // A real site's home page: it declares no WebMCP tool, which only the informational rule reports.
    ['http-real-headers.test', ['mcp.webmcp.tools_declared']],
    [
      'http-bad-manifest.test',
      [
        'metadata.manifest.named',
        'metadata.manifest.start_url_kept',
        'metadata.manifest.scope_kept',
        'metadata.manifest.display_known',
        'metadata.manifest.icons_kept',
      ],
    ],
    ['http-manifest-missing.test', ['metadata.manifest.published']],
    [
      'http-webmcp-broken.test',
      [
        'mcp.webmcp.tool_names_valid',
        'mcp.webmcp.tools_described',
        'mcp.webmcp.params_described',
        'mcp.webmcp.tool_names_unique',
      ],
    ],
    ['http-soft-404.test', ['http.not_found.status_code']],
    ['http-cors-null.test', ['http.cors.null_origin_not_trusted']],
  ])('%s fails what it breaks', async (domain, expected) => {
    // Exactly these: a site breaks one thing, so a rule failing beside them is a finding, not noise.
    expect(failing(domain, await scan(domain))).toEqual(expected.map((id) => `${id}: fail`).sort());
  });

  it('http-cors-null.test still passes the foreign-origin check', async () => {
    expect(
      outcomes('http-cors-null.test', await scan('http-cors-null.test'))['http.cors.credentials_not_reflected'],
    ).toBe('pass');
  });
});
