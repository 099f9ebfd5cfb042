// The pages in headless Chromium as a person uses them: the home page's form runs a Quick Scan (with and without
// JavaScript) and lands on the report; a report shows the lines of a JSON document as the site sent them; the
// certificate page shows its badge and links its report; the report page shows the history of Full Validations
// with its legend; a docs link scrolls to its anchor; the icon is served.
// Every page keeps to its CSP (no violation reported), has no serious or critical axe-core violation in the light
// colour scheme nor of a colour rule in the dark one, and is screenshotted into test-artifacts/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, darkSchemeDeclarations, launchBrowser, seriousViolations } from '../browser/chromium.ts';
import { startApiWorld, startTestService, type TestService } from '../server/harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
/**
 * How long a form's Quick Scan may take, click included: the click waits for the navigation it starts, whose
 * response is the finished scan, and on a loaded machine that outlasts Playwright's 30 s default.
 */
const SCAN_TIMEOUT_MS = 60_000;
let world: ApiWorld;
let svc: TestService;
// One Chromium for the file; each describe block browses in its own fresh context (a profile of its own).
let chromium: Browser;
let context: BrowserContext;
const problems: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  world = await startApiWorld(['good', 'nxdomain', 'http-no-hsts', 'ag-oauth-http']);
  // The real payments side: its ledger keeps the domain history the report page shows.
  svc = await startTestService({ ...world.env, DVS_QUICK_RATE_LIMIT: '1000' }, { realPayments: true });
  chromium = await launchBrowser();
  context = await chromium.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1000, height: 1200 } });
}, 300_000);

afterAll(async () => {
  await chromium?.close();
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

/** A page that records CSP violations, console errors and script errors (an expected 4xx is not one). */
async function openPage(): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) return;
    problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
  return page;
}

/** Where the element with this id is, from the top of the viewport (0 when the page scrolled to it). */
async function topOf(page: Page, id: string): Promise<number | undefined> {
  return (await page.locator(`[id="${id}"]`).boundingBox())?.y;
}

/**
 * axe-core in both colour schemes (or the ones named), and a screenshot of each. The dark scheme only sets
 * colours (checked here), so only axe's colour rules can judge it differently: the dark run is of those alone.
 */
async function checkPage(
  page: Page,
  name: string,
  { fullPage = true, schemes = ['light', 'dark'] as ('light' | 'dark')[] } = {},
): Promise<void> {
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    const colourOnly = scheme === 'dark';
    if (colourOnly)
      expect(await darkSchemeDeclarations(page), `${name}: dark scheme sets more than colours`).toEqual([]);
    expect(await seriousViolations(page, { colourOnly }), `${name} (${scheme})`).toEqual([]);
    const file = scheme === 'light' ? `${name}.png` : `${name}-dark.png`;
    await page.screenshot({ path: path.join(ARTIFACTS, file), fullPage });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('pages in Chromium', () => {
  it('runs a Quick Scan from the home page form and shows the report', async () => {
    const page = await openPage();
    const home = await page.goto(`${svc.url}/`);
    expect(home?.headers()['content-security-policy']).toContain("default-src 'none'");
    await checkPage(page, 'home');
    await page.getByLabel('Domain').fill('http-no-hsts.test');
    await page.getByRole('button', { name: 'Scan' }).click({ timeout: SCAN_TIMEOUT_MS });
    await page.waitForURL(`${svc.url}/report/http-no-hsts.test`, { timeout: SCAN_TIMEOUT_MS });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Quick Scan of http-no-hsts.test');
    expect(await page.getByRole('link', { name: 'Buy a Full Validation' }).getAttribute('href')).toBe('/checkout');
    // Every finding says why it matters and how to fix it, and links to its rule's entry.
    const findings = page.locator('article.finding');
    expect(await findings.count()).toBeGreaterThan(0);
    expect(await findings.filter({ hasText: 'How to fix it' }).count()).toBe(await findings.count());
    // The score, the category gauges and the at-a-glance table come before the findings.
    expect(await page.getByRole('img', { name: /^score \d+ of 100$/ }).count()).toBe(1);
    expect(await page.locator('ul.gauges svg[role=img]').count()).toBeGreaterThan(3);
    expect(await page.getByRole('table').first().locator('tbody tr').count()).toBeGreaterThan(3);
    expect(await page.getByRole('heading', { name: 'What this Quick Scan did not check' }).count()).toBe(1);
    await checkPage(page, 'report');

    // A rule link scrolls the catalogue to that rule.
    const link = findings.first().locator('a[href^="/docs/rules#"]');
    const id = decodeURIComponent((await link.getAttribute('href'))!.split('#')[1]!);
    await link.click();
    await page.waitForURL(/\/docs\/rules#/);
    const top = await topOf(page, id);
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(50);
    await page.close();
  }, 120_000);

  it('shows the lines of a JSON document a finding points into, as the site sent them', async () => {
    // ag-oauth-http.test's authorization server metadata names plain-http endpoints.
    expect((await svc.post('/api/quickscan', { domain: 'ag-oauth-http.test' })).status).toBe(200);
    const page = await openPage();
    await page.goto(`${svc.url}/report/ag-oauth-http.test`);
    const finding = page.locator('article[aria-labelledby="f-oauth.authorization_server.endpoints_https"]');
    // The world serves its sites on a port of its own, which the URL carries.
    const source = /^Lines of https:\/\/ag-oauth-http\.test(:\d+)?\/\.well-known\/oauth-authorization-server as sent:$/;
    expect(await finding.getByText(source).count()).toBe(1);
    expect(await finding.locator('pre.evidence').textContent()).toBe(
      [
        '4:   "token_endpoint": "http://ag-oauth-http.test/token",',
        '5:   "registration_endpoint": "http://ag-oauth-http.test/register",',
      ].join('\n'),
    );
    await finding.scrollIntoViewIfNeeded();
    await checkPage(page, 'report-json-excerpt');
    await page.close();
  }, 120_000);

  it('shows a page for a domain without a recent scan and for a refused one', async () => {
    const page = await openPage();
    const missing = await page.goto(`${svc.url}/report/never-scanned.test`);
    expect(missing?.status()).toBe(404);
    await checkPage(page, 'report-missing');
    await page.getByLabel('Domain').fill('https://good.test/path');
    await page.getByRole('button', { name: 'Scan' }).click();
    await page.waitForURL(`${svc.url}/report`);
    expect(await page.getByRole('alert').textContent()).toContain('invalid domain');
    expect(await page.getByLabel('Domain').inputValue()).toBe('https://good.test/path');
    await checkPage(page, 'problem');
    await page.close();
  }, 120_000);

  it('shows a certificate with its badge, and the badge itself', async () => {
    const res = await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: await svc.token() });
    const id = (
      JSON.parse((res.json() as { content: { text: string }[] }).content[1]!.text) as { payload: { id: string } }
    ).payload.id;
    const page = await openPage();
    const shown = await page.goto(`${svc.url}/certificates/${id}`);
    expect(shown?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Certificate for good.test');
    const badge = page.getByRole('img', { name: 'agent readiness badge of good.test' });
    await badge.waitFor();
    const loaded = await badge.evaluate((img) => {
      const image = img as unknown as { complete: boolean; naturalWidth: number };
      return image.complete && image.naturalWidth > 0;
    });
    expect(loaded).toBe(true);
    await checkPage(page, 'certificate');
    // The certificate's report: the report page of a Quick Scan, for the Full Validation that issued it.
    await page.getByRole('link', { name: 'The full report' }).click();
    await page.waitForURL(`${svc.url}/certificates/${id}/report`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Full Validation of good.test');
    expect(await page.getByRole('img', { name: /^score \d+ of 100$/ }).count()).toBe(1);
    expect(await page.locator('ul.gauges svg[role=img]').count()).toBeGreaterThan(3);
    expect(await page.getByRole('table').first().locator('tbody tr').count()).toBeGreaterThan(3);
    await checkPage(page, 'certificate-report');
    await page.goto(`${svc.url}/badge/good.test.svg`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'badge.png') });
    await page.goto(`${svc.url}/badge/never-validated.test.svg`);
    await page.screenshot({ path: path.join(ARTIFACTS, 'badge-not-validated.png') });
    await page.close();
  }, 120_000);

  it('shows the history of Full Validations with its legend, and the icon', async () => {
    // A second Full Validation of good.test (the certificate test made the first): the chart draws a line.
    await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: await svc.token() });
    const page = await openPage();
    await page.goto(`${svc.url}/report/good.test`);
    await page.getByRole('heading', { name: 'History of Full Validations' }).waitFor();
    expect(await page.getByRole('img', { name: 'Score and verdict over time' }).count()).toBe(1);
    const legend = page.getByRole('list', { name: 'Chart legend' });
    expect(await legend.getByRole('listitem').allTextContents()).toEqual([
      'score (0 to 100)',
      'Certified',
      'Not conformant',
      'Incomplete',
    ]);
    await checkPage(page, 'report-history');
    // The icon the page links decodes as an image in the browser (the page's img-src allows it).
    const size = await page.evaluate<[number, number]>(`(async () => {
      const img = document.createElement('img');
      img.src = document.querySelector('link[rel=icon]').getAttribute('href');
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    })()`);
    expect(size).toEqual([32, 32]);
    await page.close();
  }, 180_000);

  it('renders the API guide, and an error body docs link scrolls to its anchor', async () => {
    const page = await openPage();
    const error = await svc.post('/api/quickscan', { domain: 'good.test', extra: true });
    const docs = (error.json() as { docs: string }).docs;
    const at = new URL(docs);
    await page.goto(`${svc.url}${at.pathname}${at.hash}`);
    const top = await topOf(page, at.hash.slice(1));
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(50);
    await page.evaluate('window.scrollTo(0, 0)');
    // axe checks the whole guide in both schemes; the screenshots are of its first screen, as for the catalogue:
    // the whole guide is 31,000 pixels tall, and drawing it twice cost 6.7 s of Chromium's CPU.
    await checkPage(page, 'docs-api', { fullPage: false });
    await page.close();
  }, 180_000);

  it('renders the rule catalogue', async () => {
    // 400 rules: axe takes minutes over it on a loaded machine, so one scheme (the stylesheet is the one checked
    // in both on the other pages) and one screen's screenshot.
    const page = await openPage();
    await page.goto(`${svc.url}/docs/rules`);
    await checkPage(page, 'docs-rules', { fullPage: false, schemes: ['light'] });
    await page.close();
  }, 300_000);

  it('kept to the CSP everywhere: no violation, console error or script error', () => {
    expect(problems).toEqual([]);
  });
});

describe('without JavaScript', () => {
  it('the form still runs a Quick Scan and lands on the report', async () => {
    const noScript = await chromium.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled: false });
    try {
      const page = await noScript.newPage();
      await page.goto(`${svc.url}/`);
      await page.getByLabel('Domain').fill('good.test');
      await page.getByRole('button', { name: 'Scan' }).click({ timeout: SCAN_TIMEOUT_MS });
      await page.waitForURL(`${svc.url}/report/good.test`, { timeout: SCAN_TIMEOUT_MS });
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Quick Scan of good.test');
      await page.screenshot({ path: path.join(ARTIFACTS, 'report-no-javascript.png') });
    } finally {
      await noScript.close();
    }
  }, 120_000);
});
