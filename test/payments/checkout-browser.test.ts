// Issue 5, "Checked by": the checkout page in headless Chromium, from the click to the token to a successful
// Full Validation with it. Chromium comes from test/browser/chromium.ts (installed there when missing).
import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, launchBrowser } from '../browser/chromium.ts';
import { startInProcess, startPaymentsWorld, tempDir, type InProcessService } from './service.ts';

const SCREENSHOT = path.join(ARTIFACTS, 'checkout.png');
const PAGE_SCREENSHOT = path.join(ARTIFACTS, 'checkout-page.png');

/**
 * The page is opened at https://localhost:<port>, which Chromium tries on [::1] first. Bound to IPv4 only, the
 * service would leave [::1]:<port> to whatever else takes it (another file's world serves its IPv6 sites there),
 * and Chromium would talk TLS to that. Bound to [::] the service holds the port on both loopbacks.
 */
const ANY_ADDRESS = '::';

/** A port free right now on both address families, so the service's base URL (and the page's examples) name it. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, ANY_ADDRESS, resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The service on a port that was free a moment ago; another process may take it in between, so try again. */
async function startOnFreePort(
  world: Awaited<ReturnType<typeof startPaymentsWorld>>,
  dataDir: string,
): Promise<InProcessService> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startInProcess(world, dataDir, { DVS_HOST: ANY_ADDRESS, DVS_PORT: String(await freePort()) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw err;
    }
  }
}

/** The URL and JSON body of a curl command shown on the page. */
function parseCurl(text: string): { url: string; body: Record<string, unknown> } {
  const url = /curl -sS (https:\/\/\S+)/.exec(text)?.[1];
  const body = /-d '([^']+)'/.exec(text)?.[1];
  if (!url || !body) throw new Error(`not a curl example: ${text}`);
  return { url, body: JSON.parse(body) as Record<string, unknown> };
}

describe('checkout in headless Chromium', () => {
  let world: Awaited<ReturnType<typeof startPaymentsWorld>>;
  let dataDir: string;
  let service: InProcessService;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
    world = await startPaymentsWorld();
    dataDir = tempDir('dvs-browser-');
    service = await startOnFreePort(world, dataDir);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await world?.cleanup();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes from one click to a token that pays for a Full Validation', async () => {
    const base = service.config.baseUrl;
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1000, height: 1400 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));

    const res = await page.goto(`${base}/checkout`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
    await expect(page.title()).resolves.toBe('Full Validation: get a payment token');
    expect(await page.getByText('Test mode', { exact: true }).first().isVisible()).toBe(true);

    // Keyboard users reach the button, and it shows where focus is.
    const button = page.getByRole('button', { name: 'Get a test token (free)' });
    await button.focus();
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Get a test token (free)');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');

    mkdirSync(path.dirname(PAGE_SCREENSHOT), { recursive: true });
    await page.screenshot({ path: PAGE_SCREENSHOT, fullPage: true });
    await button.click();
    await page.waitForURL(`${base}/checkout/session`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Your payment token');
    const token = (await page.locator('#token').textContent())!.trim();
    expect(token).toMatch(/^dvs_test_[A-Za-z0-9_-]{43}$/);

    // The script revealed the copy button, and it copies the token.
    const copy = page.getByRole('button', { name: 'Copy token' });
    expect(await copy.isVisible()).toBe(true);
    await copy.click();
    await page.getByRole('status').filter({ hasText: 'Token copied.' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);

    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // Run the page's own REST example, for a domain of the fixture internet.
    const rest = parseCurl((await page.locator('#rest-example').textContent())!);
    expect(rest.url).toBe(`${base}/api/fullvalidation`);
    expect(rest.body).toEqual({ domain: 'example.com', payment_token: token });
    const validated = await service.client.rest('good.test', token);
    expect(validated.status).toBe(200);
    const certificate = JSON.parse(validated.certificate!) as { payload: { domain: string; id: string } };
    expect(certificate.payload.domain).toBe('good.test');

    // And its MCP example: the same token for the same domain gives the same certificate back.
    const mcp = parseCurl((await page.locator('#mcp-example').textContent())!);
    expect(mcp.url).toBe(`${base}/mcp`);
    expect(mcp.body).toMatchObject({
      method: 'tools/call',
      params: { name: 'service_fullvalidation', arguments: { payment_token: token } },
    });
    const replay = await service.client.mcp('good.test', token);
    expect(replay.certificate).toBe(validated.certificate);

    expect(problems).toEqual([]);
    await context.close();
  });

  it('reads without JavaScript: the explanation, the price and the form all work', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${service.config.baseUrl}/checkout`);
    expect(await page.getByText('per Full Validation').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Get a test token (free)' }).click();
    await page.waitForURL(/\/checkout\/session$/);
    expect((await page.locator('#token').textContent())!.trim()).toMatch(/^dvs_test_/);
    // Without the script the copy buttons stay hidden rather than do nothing.
    expect(await page.getByRole('button', { name: 'Copy token' }).count()).toBe(0);
    await context.close();
  });
});
