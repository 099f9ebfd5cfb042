// The pages for people over HTTPS, against the fixture internet: the guides as HTML or markdown by Accept, every
// `docs` link the service emits landing on an anchor, the Quick Scan form (same operation and limits as the API,
// then a redirect), the report page, the certificate page by content negotiation, a Full Validation's report page
// and the badge.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../../src/api/pages/page-layout.ts';
import { catalogue } from '../suite/ruleset.ts';
import type { Report } from '../../src/engine/types.ts';
import type { Certificate } from '../../src/signing/payload.ts';
import { categoryName } from '../../src/lib/categories.ts';
import { escapeHtml } from '../../src/lib/html.ts';
import { startApiWorld, startTestService, type ApiResponse, type TestService } from '../server/harness.ts';

const REPO = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BASE = 'https://dvs.example.net';
/** What Chromium sends when it navigates to a page. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';
const RATE_LIMIT = 12;

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;
let ruleset: ReturnType<typeof catalogue>;

beforeAll(async () => {
  // Loading the rules takes seconds of CPU; done before the service starts so no idle connection lapses meanwhile.
  ruleset = catalogue();
  world = await startApiWorld(['good', 'nxdomain', 'http-no-hsts']);
  svc = await startTestService({ ...world.env, DVS_BASE_URL: BASE, DVS_QUICK_RATE_LIMIT: String(RATE_LIMIT) });
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

const browse = (pathname: string, headers: Record<string, string> = {}) =>
  svc.call('GET', pathname, { headers: { accept: BROWSER_ACCEPT, ...headers } });

/** The form as a browser on one of the service's pages sends it. */
const submitForm = (domain: string, origin = svc.url) =>
  svc.call('POST', '/report', {
    body: new URLSearchParams({ domain }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, accept: BROWSER_ACCEPT },
  });

type Node = { nodeName: string; attrs?: { name: string; value: string }[]; childNodes?: Node[] };

/** Every element id of an HTML document, and every href, read by an HTML parser. */
function idsAndLinks(html: string): { ids: Set<string>; hrefs: string[] } {
  const ids = new Set<string>();
  const hrefs: string[] = [];
  const walk = (node: Node) => {
    for (const a of node.attrs ?? []) {
      if (a.name === 'id') ids.add(a.value);
      if (a.name === 'href') hrefs.push(a.value);
    }
    for (const child of node.childNodes ?? []) walk(child);
    const content = (node as Node & { content?: Node }).content;
    if (content) walk(content);
  };
  walk(parse(html));
  return { ids, hrefs };
}

const guideCache = new Map<string, Set<string>>();
/** Whether a `/docs/...#anchor` link lands: the guide is served as HTML and holds an element with that id. */
async function lands(link: string): Promise<string | null> {
  const url = new URL(link, BASE);
  if (url.origin !== BASE) return `${link} points away from the service`;
  const anchor = decodeURIComponent(url.hash.slice(1));
  if (anchor === '') {
    const res = await browse(url.pathname);
    return res.status === 200 ? null : `${url.pathname} answered ${res.status}`;
  }
  let ids = guideCache.get(url.pathname);
  if (!ids) {
    const res = await browse(url.pathname);
    if (res.status !== 200 || !res.headers['content-type']?.startsWith('text/html'))
      return `${url.pathname} answered ${res.status} ${res.headers['content-type']}`;
    ids = idsAndLinks(res.text).ids;
    guideCache.set(url.pathname, ids);
  }
  return ids.has(anchor) ? null : `${link}: no element with id ${anchor}`;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

describe('the guides', () => {
  it('are HTML for a browser and markdown for agents, always markdown at .md', async () => {
    const html = await browse('/docs/api');
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(html.headers.vary).toMatch(/accept/i);
    expect(html.headers.link).toBe('</docs/api.md>; rel="alternate"; type="text/markdown"');
    expect(html.text).toContain('<h2 id="limits" tabindex="-1"><a class="header-anchor" href="#limits">');
    expect(html.text).not.toMatch(/<script|\sstyle=/);

    for (const accept of [undefined, '*/*', 'text/markdown', 'text/markdown, text/html;q=0.5', 'application/json']) {
      const md = await svc.call('GET', '/docs/api', { headers: accept ? { accept } : {} });
      expect(md.headers['content-type'], accept).toBe('text/markdown; charset=utf-8');
      expect(md.text).toBe(readFileSync(path.join(REPO, 'docs', 'api.md'), 'utf8'));
    }
    const always = await browse('/docs/rules.md');
    expect(always.headers['content-type']).toBe('text/markdown; charset=utf-8');
  });

  it('anchor every rule of the catalogue by its id', async () => {
    const res = await browse('/docs/rules');
    const { ids } = idsAndLinks(res.text);
    const missing = ruleset.rules.filter((r) => !ids.has(r.id));
    expect(missing.map((r) => r.id)).toEqual([]);
  });

  it('link only to anchors they have', async () => {
    const broken: string[] = [];
    for (const name of ['api', 'operations', 'rules']) {
      const { hrefs } = idsAndLinks((await browse(`/docs/${name}`)).text);
      for (const href of hrefs.filter((h) => h.startsWith('#') || h.startsWith('/docs/'))) {
        const problem = await lands(href.startsWith('#') ? `/docs/${name}${href}` : href);
        if (problem) broken.push(`${name}: ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('every docs link the service emits', () => {
  it('lands on an existing anchor: every /docs link written in the source', async () => {
    const links = new Set<string>();
    for (const file of [...sourceFiles(path.join(REPO, 'src')), ...sourceFiles(path.join(REPO, 'plugins'))]) {
      for (const m of readFileSync(file, 'utf8').matchAll(/['"`](\/docs\/[a-z-]+(?:#[\w.-]+)?)['"`]/g))
        links.add(m[1]!);
    }
    // The scan must find the error bodies' links, or it proves nothing.
    expect([...links]).toEqual(expect.arrayContaining(['/docs/api#requests', '/docs/api#limits', '/docs/api']));
    const broken = (await Promise.all([...links].map(lands))).filter((p) => p !== null);
    expect(broken).toEqual([]);
  });

  it('lands on an existing anchor: the docs of error bodies as served', async () => {
    const json = { 'content-type': 'application/json' };
    const replies: ApiResponse[] = [
      await svc.call('POST', '/api/quickscan', { body: '{', headers: json }),
      await svc.call('POST', '/api/quickscan', { body: '{"domain":"a"}', headers: { 'content-type': 'text/plain' } }),
      await svc.post('/api/quickscan', { domain: 'https://good.test/' }),
      await svc.post('/api/quickscan', { domain: 'good.test', extra: 1 }),
      await svc.post('/api/quickscan', { domain: 'x'.repeat(20_000) }),
      await svc.post('/api/fullvalidation', { domain: 'good.test' }),
      await svc.call('GET', '/nowhere'),
      await svc.call('DELETE', '/api/quickscan'),
      await svc.call('GET', '/api/certificates/dvc_unknown'),
      await svc.call('GET', '/badge/-bad-.test.svg'),
    ];
    const docs = replies.map((r) => (r.json() as { docs?: string }).docs).filter((d) => d !== undefined);
    expect(docs.length).toBeGreaterThanOrEqual(9);
    const broken: string[] = [];
    for (const link of docs.filter((d) => d.startsWith(`${BASE}/docs/`))) {
      const problem = await lands(link);
      if (problem) broken.push(problem);
    }
    expect(broken).toEqual([]);
  });
});

describe('the Quick Scan form and the report page', () => {
  it('a GET never scans: without a cached scan the report page says so and offers the form', async () => {
    const res = await browse('/report/good.test');
    expect(res.status).toBe(404);
    expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(res.text).toContain('No recent Quick Scan of good.test');
    expect(res.text).toContain('<form method="post" action="/report" toolname="quick_scan"');
    // Had the GET scanned, this would be a cache hit.
    const api = await svc.post('/api/quickscan', { domain: 'good.test' });
    expect(api.headers['x-cache']).toBe('miss');
  });

  it('runs the scan from the form, redirects to the report, and the report shows every finding with its texts', async () => {
    const posted = await submitForm(' HTTP-No-HSTS.test. ');
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/report/http-no-hsts.test');
    // The form ran the same operation as the API: the API now answers from the same cache.
    const api = await svc.post('/api/quickscan', { domain: 'http-no-hsts.test' });
    expect(api.headers['x-cache']).toBe('hit');
    const report = JSON.parse((api.json() as { content: { text: string }[] }).content[1]!.text) as Report;

    const page = await browse(posted.headers.location!);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(page.text).toContain('<h1>Quick Scan of http-no-hsts.test</h1>');
    expect(page.text).toContain(`score <strong>${report.score}</strong>/100`);
    const findings = report.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
    expect(findings.length).toBeGreaterThan(0);
    for (const f of findings) {
      const rule = ruleset.byId.get(f.id)!;
      expect(page.text).toContain(escapeHtml(rule.rationale.trim()));
      expect(page.text).toContain(escapeHtml(rule.remediation.trim()));
      expect(page.text).toContain(`<a href="/docs/rules#${f.id}"><code>${f.id}</code></a>`);
    }
    // Groups and gauges named for people, one per category, the groups in the order of their gauges.
    const categories = [...new Set(report.results.map((r) => ruleset.byId.get(r.id)!.category))];
    const headings = [...page.text.matchAll(/<h3 id="category-([a-z0-9]+)">([^<]+) </g)];
    expect(headings.map((h) => [h[1], h[2]]).sort()).toEqual(categories.map((c) => [c, categoryName(c).name]).sort());
    const gauges = [...page.text.matchAll(/<li><a href="#category-([a-z0-9]+)"><svg class="gauge /g)].map((m) => m[1]);
    expect(gauges).toEqual(headings.map((h) => h[1]));
    // A required failure keeps the overall gauge under 50, in the poor band.
    expect(report.verdict).toBe('NOT_CONFORMANT');
    expect(page.text).toContain(
      `<svg class="gauge gauge-poor gauge-large" viewBox="0 0 100 100" role="img" aria-label="score ${report.score} of 100"`,
    );
    // What the checks saw, as the site sent it: here, the header it did not send.
    expect(page.text).toContain('<p><strong>no Strict-Transport-Security header</strong></p>');
    expect(page.text).toMatch(/<td><code>no Strict-Transport-Security header<\/code><\/td><\/tr>/);
    // One line per subject a scored rule of the scan applied to.
    const subjects = new Set(
      report.results
        .filter((r) => r.outcome !== 'not_applicable' && r.level !== 'informational')
        .map((r) => r.id.split('.').slice(0, 2).join('.')),
    );
    expect(page.text.match(/<tr><th scope="row">/g)).toHaveLength(subjects.size);
    // What the Quick Scan left out, counted from the catalogue.
    const full = ruleset.rules.filter((r) => r.tier === 'full');
    expect(page.text).toContain(
      `This Quick Scan ran ${report.results.length} of the catalogue's ${ruleset.rules.length} rules. A Full Validation runs all of them: ${full.length} more checks, ${full.filter((r) => r.level === 'required').length} of them required`,
    );
    expect(page.text).toContain('<a href="/checkout">Buy a Full Validation</a>');

    const { hrefs } = idsAndLinks(page.text);
    const docLinks = hrefs.filter((h) => h.startsWith('/docs/rules#'));
    expect(new Set(docLinks)).toEqual(
      new Set(['/docs/rules#the-score', ...report.results.map((r) => `/docs/rules#${r.id}`)]),
    );
    const broken = (await Promise.all([...new Set(docLinks)].map(lands))).filter((p) => p !== null);
    expect(broken).toEqual([]);
    const inPage = hrefs.filter((h) => h.startsWith('#'));
    expect(inPage.length).toBeGreaterThan(0);
    const { ids } = idsAndLinks(page.text);
    expect(inPage.filter((h) => !ids.has(h.slice(1)))).toEqual([]);
  });

  it('serves the icon every page links, cached for a week and revalidated by ETag', async () => {
    const page = await browse('/');
    expect(page.text).toContain('<link rel="icon" href="/favicon.ico" sizes="16x16 32x32">');
    const icon = await svc.call('GET', '/favicon.ico');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/x-icon');
    expect(icon.headers['cache-control']).toBe('public, max-age=604800');
    expect(Number(icon.headers['content-length'])).toBe(readFileSync(path.join(REPO, 'assets', 'favicon.ico')).length);
    const again = await svc.call('GET', '/favicon.ico', { headers: { 'if-none-match': icon.headers.etag! } });
    expect(again.status).toBe(304);
  });

  it('redirects a domain not in its normal form, and shows a domain that could not be judged', async () => {
    const moved = await browse('/report/HTTP-NO-HSTS.test');
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe('/report/http-no-hsts.test');
    expect((await submitForm('nxdomain.test')).status).toBe(303);
    const page = await browse('/report/nxdomain.test');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/could not be judged: .*NXDOMAIN/);
  });

  it('refuses what the API refuses, as a page for a browser and as the Error body for a program', async () => {
    const bad = await submitForm('https://good.test/<b>');
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(bad.text).toContain('invalid domain');
    expect(bad.text).toContain('value="https://good.test/&#60;b&#62;"');
    expect(bad.text).not.toContain('<b>');
    const program = await svc.call('GET', '/report/not_a_domain');
    expect(program.status).toBe(400);
    expect((program.json() as { error: string }).error).toContain('invalid domain');
    const crossSite = await submitForm('good.test', 'https://attacker.example');
    expect(crossSite.status).toBe(403);
    const notForm = await svc.call('POST', '/report', {
      body: '{"domain":"good.test"}',
      headers: { 'content-type': 'application/json', origin: svc.url },
    });
    expect(notForm.status).toBe(400);
  });

  it('counts form scans against the same per-client limit as the API, and says when to come back', async () => {
    let last: ApiResponse | null = null;
    for (let i = 0; i <= RATE_LIMIT && last?.status !== 429; i++) last = await submitForm(`nothing-${i}.test`);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.text).toContain('too many quick scans');
    const api = await svc.post('/api/quickscan', { domain: 'nothing-else.test' });
    expect(api.status).toBe(429);
  });
});

describe('certificates and the badge', () => {
  let first: string;

  it('serves the certificate as JSON to programs and as a page to browsers', async () => {
    const token = svc.gate.issue();
    const res = await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token });
    expect(res.status, res.text).toBe(200);
    const body = (res.json() as { content: { text: string }[] }).content[1]!.text;
    const cert = JSON.parse(body) as { payload: { id: string; verdict: string; anchor: { value: string } } };
    first = cert.payload.id;
    for (const at of [`/api/certificates/${first}`, `/certificates/${first}`]) {
      const json = await svc.call('GET', at);
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(json.text).toBe(body);
      expect((await svc.call('GET', at, { headers: { accept: 'application/json, text/html;q=0.9' } })).text).toBe(body);
      const page = await browse(at);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
      expect(page.headers.vary).toMatch(/accept/i);
      expect(page.text).toContain('<dt>Status</dt><dd><strong>Valid</strong></dd>');
      expect(page.text).toContain(`_agent-validation.good.test. IN TXT &#34;${cert.payload.anchor.value}&#34;`);
      expect(page.text).toContain(`dvs verify certificate.json --jwks ${BASE}/.well-known/jwks.json --dns`);
    }
    const missing = await browse('/certificates/dvc_missing');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('shows the Full Validation report from the ledger, linked from the certificate page', async () => {
    const certificate = await browse(`/certificates/${first}`);
    expect(certificate.text).toContain(`<a href="/certificates/${first}/report">The full report</a>`);
    const stored = (await svc.gate.certificate(first))!;
    const report = JSON.parse(gunzipSync(stored.report!).toString('utf8')) as Report;
    const page = await svc.call('GET', `/certificates/${first}/report`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(page.text).toContain('<h1>Full Validation of good.test</h1>');
    expect(page.text).toContain(`score <strong>${report.score}</strong>/100`);
    expect(page.text).toContain(`<a href="/certificates/${first}"><code>${first}</code></a> (valid)`);
    expect(page.text).toContain(`Agent-readiness level ${report.agent_readiness!.level} of 5`);
    expect(page.text).not.toContain('What this Quick Scan did not check');
    expect(page.text).not.toContain('is no longer kept');
  });

  it('says when a Full Validation report is no longer kept, and refuses an unknown certificate', async () => {
    const res = await svc.post('/api/fullvalidation', { domain: 'http-no-hsts.test', payment_token: svc.gate.issue() });
    const id = (JSON.parse((res.json() as { content: { text: string }[] }).content[1]!.text) as Certificate).payload.id;
    const stored = (await svc.gate.certificate(id))!;
    const report = JSON.parse(gunzipSync(stored.report!).toString('utf8')) as Report;
    const page = await svc.call('GET', `/certificates/${id}/report`);
    // Every finding of the stored report is on the page, with what the site sent while the evidence is kept.
    const findings = report.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error');
    expect(findings.map((f) => f.id)).toContain('headers.hsts.present');
    for (const f of findings) expect(page.text).toContain(`id="f-${escapeHtml(f.id)}"`);
    expect(page.text).toContain('<p class="muted">Response headers of https://http-no-hsts.test');
    expect(page.text).toContain('<strong>no Strict-Transport-Security header</strong>');
    // A revoked certificate's evidence is no longer served: the report stands, without the lines the site sent.
    await svc.gate.revoke(id, 'test', Date.now());
    const withoutEvidence = await svc.call('GET', `/certificates/${id}/report`);
    expect(withoutEvidence.status).toBe(200);
    expect(withoutEvidence.text).toContain('<h1>Full Validation of http-no-hsts.test</h1>');
    expect(withoutEvidence.text).toContain('is no longer kept: each finding shows the facts its check read');
    expect(withoutEvidence.text).not.toContain('Response headers of');
    svc.gate.dropReport(id);
    const pruned = await svc.call('GET', `/certificates/${id}/report`);
    expect(pruned.status).toBe(410);
    expect(pruned.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(pruned.text).toContain('is no longer kept');
    expect(pruned.text).toContain(`<a href="/certificates/${id}"><code>${id}</code></a>`);
    const unknown = await browse('/certificates/dvc_missing/report');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await svc.call('GET', '/certificates/dvc_missing/report')).json()).toMatchObject({
      error: 'no certificate with id "dvc_missing" was issued by this service',
    });
  });

  it('shows the current verdict on the badge, cacheable and revalidated by ETag', async () => {
    const badge = await svc.call('GET', '/badge/good.test.svg');
    expect(badge.status).toBe(200);
    expect(badge.headers['content-type']).toBe('image/svg+xml');
    expect(badge.headers['cache-control']).toBe('public, max-age=300');
    expect(badge.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const cert = JSON.parse((await svc.call('GET', `/api/certificates/${first}`)).text) as {
      payload: { verdict: string };
    };
    const word = { CERTIFIED: 'certified', NOT_CONFORMANT: 'not conformant', INCOMPLETE: 'incomplete' }[
      cert.payload.verdict
    ];
    expect(badge.text).toMatch(new RegExp(`aria-label="agent readiness: ${word} · level [0-5]"`));
    const etag = badge.headers.etag!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await svc.call('GET', '/badge/good.test.svg', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    const none = await svc.call('GET', '/badge/never-validated.test.svg');
    expect(none.status).toBe(200);
    expect(none.text).toContain('aria-label="agent readiness: not validated"');
    expect(none.headers.etag).not.toBe(etag);
  });

  it('marks a certificate superseded once a newer one is issued for the domain', async () => {
    const res = await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: svc.gate.issue() });
    const second = (
      JSON.parse((res.json() as { content: { text: string }[] }).content[1]!.text) as {
        payload: { id: string };
      }
    ).payload.id;
    // Each validation observes anew, so its certificate (whose id derives from its content) is a new one.
    expect(second).not.toBe(first);
    const page = await browse(`/certificates/${first}`);
    expect(page.text).toContain(`<strong>Superseded</strong>: a newer certificate, ${second}, was issued`);
  });
});
