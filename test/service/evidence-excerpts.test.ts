// What a check saw as the site sent it, from the golden evidence of the fixture internet: header lines (each
// Strict-Transport-Security line as sent), what a site did not send, DNS records, redirect hops, the certificate
// and a document's status line, or the lines of a document a rule's facts point at; the most specific excerpt a
// rule's facts point to; each distinct one kept once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Observations, Report } from '../../src/engine/types.ts';
import { excerptFor, excerptsOf } from '../../src/service/evidence-excerpts.ts';
import { catalogue } from '../suite/ruleset.ts';

const golden = <T>(name: string): T =>
  JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'golden', name), 'utf8')) as T;
const good = golden<Observations>('good.test.observations.json');
const noHsts = golden<Observations>('http-no-hsts.test.observations.json');
const world = (site: string): Observations => golden<Observations>(path.join('world', `${site}.json`));

describe('excerptFor', () => {
  it('shows the header lines as sent, or says which header the site did not send', () => {
    expect(excerptFor(['http.security_headers.hsts.valid'], good)).toEqual({
      source: 'Response headers of https://good.test/ (HTTP/2 200)',
      lines: ['Strict-Transport-Security: max-age=63072000; includeSubDomains; preload'],
    });
    expect(excerptFor(['http.security_headers.hsts.count'], noHsts)).toEqual({
      source: 'Response headers of https://http-no-hsts.test/ (HTTP/2 200)',
      lines: [],
      absent: 'no Strict-Transport-Security header',
    });
    expect(excerptFor(['http.security_headers.x_content_type_options'], noHsts)?.absent).toBe(
      'no X-Content-Type-Options header',
    );
  });

  it('prefers the parsed header a rule reads to another header or the redirect chain it also reads', () => {
    const paths = [
      'http.response.chain.final_scheme',
      'http.response.content_type',
      'http.security_headers.hsts.valid',
    ];
    expect(excerptFor(paths, good)?.lines).toEqual([
      'Strict-Transport-Security: max-age=63072000; includeSubDomains; preload',
    ]);
    expect(excerptFor(['http.response.content_type'], good)?.lines).toEqual(['Content-Type: text/html; charset=utf-8']);
  });

  it('shows DNS records, redirect hops, the certificate and a document as fetched', () => {
    expect(excerptFor(['dns.spf.count'], good)).toEqual({
      source: 'DNS TXT records at good.test',
      lines: ['good.test. TXT "v=spf1 mx -all"'],
    });
    expect(excerptFor(['http.redirect.first_status'], good)?.lines).toEqual([
      'GET http://good.test/ -> 301, Location: https://good.test/',
      'GET https://good.test/ -> 200',
    ]);
    expect(excerptFor(['tls.certificate.leaf.not_after'], good)?.lines[0]).toBe('Subject: CN=good.test');
    expect(excerptFor(['wellknown.robots.published'], good)).toEqual({
      source: 'The document as fetched',
      lines: ['GET https://good.test/robots.txt -> 200, text/plain, 358 bytes'],
    });
    expect(excerptFor(['performance.nothing'], good)).toBeNull();
  });
});

describe('excerptFor a document a finding points into', () => {
  it('shows the robots.txt lines that break the grammar, numbered, as sent', () => {
    expect(
      excerptFor(['wellknown.robots.parse_errors', 'wellknown.robots.published'], world('wk-robots-malformed.test')),
    ).toEqual({
      source: 'Lines of https://wk-robots-malformed.test/robots.txt as sent',
      lines: ['1: Disallow: /private', '5: Disalow /tmp'],
    });
  });

  it('shows the group and the rule that disallow a crawler, and what the * group disallows', () => {
    const blocks = world('wk-robots-blocks-ai.test');
    expect(excerptFor(['wellknown.robots.access.GPTBot.root'], blocks)?.lines).toEqual([
      '6: User-agent: GPTBot',
      '8: Disallow: /',
    ]);
    expect(excerptFor(['wellknown.robots.wildcard.llms_txt'], blocks)?.lines).toEqual([
      '10: User-agent: *',
      '11: Disallow: /*.txt$',
    ]);
  });

  it('shows the security.txt line a fact was read from, and the llms.txt lines that break its outline', () => {
    const expired = world('wk-security-txt-expired.test');
    const { security_txt } = expired.wellknown as { security_txt: { fields: { expires: string[] } } };
    const expires = security_txt.fields.expires[0]!;
    expect(excerptFor(['wellknown.security_txt.expires', 'wellknown.security_txt.published'], expired)).toEqual({
      source: 'Lines of https://wk-security-txt-expired.test/.well-known/security.txt as sent',
      lines: [`2: Expires: ${expires}`],
    });
    expect(
      excerptFor(['wellknown.llms_txt.sections', 'wellknown.llms_txt.published'], world('wk-bad-llms.test'))?.lines,
    ).toEqual(['7: - Home page']);
  });

  it('shows the line where a sitemap stops being well-formed', () => {
    expect(
      excerptFor(['wellknown.sitemap.well_formed', 'wellknown.sitemap.published'], world('wk-sitemap-broken.test')),
    ).toEqual({
      source: 'Lines of https://wk-sitemap-broken.test/sitemap.xml as sent',
      lines: ['3:   <url><loc>https://wk-sitemap-broken.test/?a=1&b=2</loc></url>'],
    });
  });

  it('shows the sitemap entries its counts count, and the robots.txt line that declares it', () => {
    expect(
      excerptFor(['wellknown.sitemap.off_host', 'wellknown.sitemap.published'], world('wk-sitemap-gzip.test'))?.lines,
    ).toEqual(['4:   <url><loc>https://elsewhere.test/page</loc><lastmod>last week</lastmod></url>']);
    expect(excerptFor(['wellknown.robots.sitemaps'], world('good.test'))?.lines).toEqual([
      '22: Sitemap: https://good.test/sitemap.xml',
    ]);
  });

  it('shows the members of a JSON document a finding names, nested at any depth, a private key redacted', () => {
    const oauth = [
      'agents.oauth.authorization_server.json_parsed',
      'agents.oauth.authorization_server.non_https_endpoints',
    ];
    expect(excerptFor(oauth, world('ag-oauth-http.test'))).toEqual({
      source: 'Lines of https://ag-oauth-http.test/.well-known/oauth-authorization-server as sent',
      lines: [
        '4:   "token_endpoint": "http://ag-oauth-http.test/token",',
        '5:   "registration_endpoint": "http://ag-oauth-http.test/register",',
      ],
    });
    // A required member missing: the opening line of the object that lacks it.
    expect(
      excerptFor(['agents.a2a.card.json_parsed', 'agents.a2a.card.missing_required'], world('ag-card-incomplete.test'))
        ?.lines,
    ).toEqual(['1: {']);
    const jwks = excerptFor(['agents.identity.jwks.private_members'], world('ag-jwks-private.test'))!;
    expect(jwks.lines).toHaveLength(1);
    expect(jwks.lines[0]).toMatch(/^3: .*"d": "\[redacted\]"/);
  });

  it('shows the members of another name a card fact is read from, and the AP2 extension a card declares', () => {
    expect(
      excerptFor(['agents.a2a.card.interface_style', 'agents.a2a.card.json_parsed'], world('ag-card-incomplete.test'))
        ?.lines,
    ).toEqual(['1: {']);
    expect(excerptFor(['agents.a2a.card.extensions'], world('ag-ap2-broken.test'))?.lines).toEqual([
      '16:         "uri": "https://github.com/google-agentic-commerce/ap2/v1",',
      '18:         "required": false,',
      '20:           "roles": [',
    ]);
  });

  it('shows, for a rule over a list of documents, the lines of the member it judges in each', () => {
    const good = world('good.test');
    expect(
      excerptFor(['agents.oauth.named_servers'], good, () => [
        'agents.oauth.named_servers[].oauth_authorization_server.issuer',
        'agents.oauth.named_servers[].openid_configuration.issuer',
      ]),
    ).toEqual({
      source: 'Lines of https://good.test/auth/.well-known/openid-configuration as sent',
      lines: ['2:   "issuer": "https://good.test/auth",'],
    });
    // A key set that publishes a private key: the key's private member, its value redacted.
    const leaked = structuredClone(good) as unknown as { agents: { oauth: { key_sets: Record<string, unknown>[] } } };
    leaked.agents.oauth.key_sets[0]!.excerpt = [
      { line: 3, text: '    { "kty": "EC", "d": "[redacted]" }', facts: ['private_members'] },
    ];
    expect(
      excerptFor(['agents.oauth.key_sets'], leaked as unknown as Observations, () => [
        'agents.oauth.key_sets[].private_members',
      ]),
    ).toEqual({
      source: 'Lines of https://good.test/auth/keys.json as sent',
      lines: ['3:     { "kty": "EC", "d": "[redacted]" }'],
    });
    // Without the rule's item reads, the list shows no lines.
    expect(excerptFor(['agents.oauth.key_sets'], leaked as unknown as Observations)).toBeNull();
  });

  it('shows the lines of the web app manifest the processing steps ignored', () => {
    expect(excerptFor(['http.manifest.ignored', 'http.manifest.published'], world('http-bad-manifest.test'))).toEqual({
      source: 'Lines of https://http-bad-manifest.test/manifest.webmanifest as sent',
      lines: [
        '3:   "start_url": "https://app.example.net/start",',
        '4:   "scope": "/app/",',
        '5:   "display": "app",',
        '8:     {"src": "/icon-192.png", "sizes": "192", "type": "image/png"},',
      ],
    });
  });

  it('shows the document as fetched when the facts a rule read point at no line', () => {
    expect(
      excerptFor(['wellknown.security_txt.document.content_type'], world('wk-security-txt-expired.test'))?.source,
    ).toBe('The document as fetched');
  });
});

describe('excerptsOf', () => {
  it('keeps each distinct excerpt once, for every rule that applied, none for one that did not', () => {
    const report = golden<Report>('http-no-hsts.test.report.json');
    const { list, byRule } = excerptsOf(report, noHsts, catalogue());
    expect(new Set(list.map((e) => JSON.stringify(e))).size).toBe(list.length);
    expect(list[byRule['headers.hsts.present']!]!.absent).toBe('no Strict-Transport-Security header');
    const skipped = report.results.filter((r) => r.outcome === 'not_applicable').map((r) => r.id);
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.filter((id) => id in byRule)).toEqual([]);
  });

  it('finds the items of a list of documents a rule reads from its logic', () => {
    const good = world('good.test');
    const report = golden<Report>('good.test.report.json');
    const { list, byRule } = excerptsOf(report, good, catalogue());
    expect(list[byRule['oauth.named_servers.issuer_matches']!]!.source).toBe(
      'Lines of https://good.test/auth/.well-known/openid-configuration as sent',
    );
  });
});
