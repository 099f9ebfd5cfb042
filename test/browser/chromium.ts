// Headless Chromium for the browser tests: Debian's chromium (installed by scripts/ensure-chromium.sh when
// missing), driven by playwright-core, with a fresh profile per context, plus an axe-core run over a page.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type LaunchOptions, type Page } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';

export const REPO = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = path.join(REPO, 'test-artifacts');

/** Installs Chromium the one way the project does, or says why it cannot. */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  try {
    execFileSync(path.join(REPO, 'scripts', 'ensure-chromium.sh'), { stdio: 'inherit', timeout: 280_000 });
  } catch (err) {
    throw new Error(
      `the browser test needs Debian's chromium at ${CHROMIUM}, and scripts/ensure-chromium.sh could not install it: ${(err as Error).message}`,
      { cause: err },
    );
  }
  if (!existsSync(CHROMIUM)) throw new Error(`scripts/ensure-chromium.sh ran but ${CHROMIUM} is still missing`);
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium with the project's flags. Each browser.newContext() starts empty (an incognito context: no cookies,
 * storage or cache shared with another), so one launch serves every fresh browser a file needs; Playwright
 * removes the browser's temporary user-data-dir on close.
 */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  ensureChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, ...options });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The rules of axe-core's colour category (`cat.color`) that run by default: all that a colour scheme can change
 * on pages whose dark scheme only sets colours (`darkSchemeDeclarations`). The category's third rule,
 * color-contrast-enhanced, is AAA and off by default, so the full run does not check it either.
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];
const COLOUR_CATEGORY = [...COLOUR_RULES, 'color-contrast-enhanced'];

/**
 * The violations axe-core finds on the page whose impact is serious or critical, as readable lines; with
 * `colourOnly`, of the colour rules alone. axe is evaluated through the DevTools protocol, which the page's CSP
 * does not govern (a script tag would be refused).
 */
export async function seriousViolations(page: Page, { colourOnly = false } = {}): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  if (colourOnly) {
    const colours = (await page.evaluate<string[]>("axe.getRules(['cat.color']).map((r) => r.ruleId)")).sort();
    if (colours.join() !== [...COLOUR_CATEGORY].sort().join()) {
      throw new Error(`axe-core's colour rules are now ${colours.join(', ')}: review COLOUR_RULES`);
    }
  }
  // Only violations are read: axe then skips building selectors for every passing node (axe-core API docs,
  // "Performance"), which on the 400-rule catalogue is most of its time.
  const options = {
    resultTypes: ['violations'],
    ...(colourOnly && { runOnly: { type: 'rule', values: COLOUR_RULES } }),
  };
  const results = await page.evaluate<AxeResults>(`axe.run(document, ${JSON.stringify(options)})`);
  return results.violations
    .filter((v: Result) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: Result) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * What the page's stylesheets declare for the dark colour scheme, other than a custom property set to a colour:
 * none, or a colour-only axe run would miss what the dark scheme changes besides colours.
 */
export async function darkSchemeDeclarations(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`[...document.styleSheets]
    .flatMap((sheet) => [...sheet.cssRules])
    .filter((rule) => rule instanceof CSSMediaRule && /prefers-color-scheme:\\s*dark/.test(rule.conditionText))
    .flatMap((media) => [...media.cssRules])
    .flatMap((rule) => rule instanceof CSSStyleRule
      ? [...rule.style].map((name) => name + ': ' + rule.style.getPropertyValue(name).trim())
      : [rule.cssText])
    .filter((declaration) => !/^--[\\w-]+: #[0-9a-f]{3,8}$/i.test(declaration))`);
}
