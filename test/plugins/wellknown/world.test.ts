// The wellknown probe against the fixture internet: the real network layer, the good site and each wk-* site
// that breaks one area. Facts are asserted directly, and the good site is evaluated against every rule of
// the robots, usage, llms, wellknown and discovery categories, which it must pass (or not need).
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld, type SharedWorld } from '../../suite/world.ts';
import { evaluateRule } from '../../../src/engine/evaluate.ts';
import { provider } from '../../../plugins/wellknown/index.ts';
import type { Observations } from '../../../src/engine/types.ts';
import { rulesReading, OBSERVED_AT, worldContext } from '../world-probe.ts';
import { allFacets } from '../../helpers/typed-json.ts';

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});
const rules = rulesReading('wellknown');

async function observe(domain: string) {
  return allFacets('wellknown', await provider.collect(domain, worldContext(world.env)));
}

function outcomes(domain: string, wellknown: unknown): Record<string, string> {
  const doc: Observations = {
    target: { domain, observed_at: OBSERVED_AT },
    probes: { wellknown: { status: 'ok', ms: 1 } },
    wellknown,
  };
  return Object.fromEntries(rules.map((r) => [r.id, evaluateRule(r, doc).outcome]));
}

describe('wellknown probe in the fixture world', () => {
  it('finds everything good.test publishes, and good.test passes every rule it is judged by', async () => {
    const wk = await observe('good.test');
    expect(wk.robots.availability).toBe('available');
    expect(wk.robots.parse_errors).toEqual([]);
    expect(wk.robots.access['Claude-User']).toMatchObject({ root: 'allow', group: 'wildcard' });
    expect(wk.robots.access.GPTBot).toMatchObject({ root: 'allow', group: 'specific' });
    expect(wk.usage.content_signals?.[0]?.signals).toEqual({ search: 'yes', 'ai-input': 'yes', 'ai-train': 'yes' });
    expect(wk.llms_txt).toMatchObject({ title: 'Good Test', h1_count: 1, starts_with_h1: true, parse_errors: [] });
    expect(wk.llms_txt).toMatchObject({ published: true, document: { status: 200, content_type: 'text/plain' } });
    expect(wk.llms_full_txt.first_heading_level).toBe(1);
    expect(wk.sitemap).toMatchObject({
      source: 'robots',
      well_formed: true,
      root: 'urlset',
      entry_count: 2,
      loc_invalid: 0,
      off_host: 0,
    });
    expect(wk.security_txt).toMatchObject({ https: true, insecure_uris: [], parse_errors: [] });
    expect(Date.parse(wk.security_txt.expires ?? '')).toBeGreaterThan(Date.parse(OBSERVED_AT));
    expect(wk.discovery.link_rels).toEqual(['alternate', 'api-catalog', 'describedby']);
    expect(wk.discovery.unknown_well_known.status).toBe(404);

    const failing = Object.entries(outcomes('good.test', wk)).filter(([, o]) => o !== 'pass' && o !== 'not_applicable');
    expect(failing).toEqual([]);
  });

  it('reports a robots.txt that shuts out AI user fetchers and crawlers', async () => {
    const wk = await observe('wk-robots-blocks-ai.test');
    expect(wk.robots.access['ChatGPT-User']).toMatchObject({ root: 'disallow', group: 'specific' });
    expect(wk.robots.access.ClaudeBot.root).toBe('disallow');
    expect(wk.robots.access.PerplexityBot).toMatchObject({ root: 'allow', llms_txt: 'disallow', group: 'wildcard' });
    expect(wk.robots.wildcard).toMatchObject({ root: 'allow', llms_txt: 'disallow' });
    const o = outcomes('wk-robots-blocks-ai.test', wk);
    expect([o['robots.txt.user_fetchers_allowed'], o['robots.txt.llms_txt_open'], o['robots.txt.root_open']]).toEqual([
      'fail',
      'fail',
      'pass',
    ]);
  });

  it('treats a 5xx robots.txt as a complete disallow', async () => {
    const wk = await observe('wk-robots-5xx.test');
    expect(wk.robots.document.status).toBe(503);
    expect(wk.robots.availability).toBe('unreachable');
    expect(wk.robots.access['Claude-User'].root).toBe('disallow');
    const o = outcomes('wk-robots-5xx.test', wk);
    expect([o['robots.txt.reachable'], o['robots.txt.user_fetchers_allowed']]).toEqual(['fail', 'fail']);
  });

  it('lists the lines of a malformed robots.txt', async () => {
    const wk = await observe('wk-robots-malformed.test');
    expect(wk.robots.parse_errors?.map((e) => [e.line, e.code])).toEqual([
      [1, 'rule_outside_group'],
      [5, 'whitespace_separator'],
      [5, 'misspelt_key'],
    ]);
    // `Disalow /tmp` is read as Google's parser reads it: a Disallow rule of the GPTBot group.
    expect(wk.robots.groups?.[0]?.disallow_rules).toBe(1);
    expect(wk.robots.groups?.[0]?.crawl_delay).toBe(3600);
    expect(wk.usage.content_signals?.[0]?.problems).toEqual(['invalid_value']);
    const o = outcomes('wk-robots-malformed.test', wk);
    expect(o['robots.txt.parses_cleanly']).toBe('fail');
    expect(o['robots.txt.sitemaps_absolute']).toBe('fail');
    expect(o['usage.content_signal.valid']).toBe('fail');
  });

  it('reports a site without llms.txt, security.txt or sitemap as not publishing them', async () => {
    const wk = await observe('wk-no-llms.test');
    expect(wk.llms_txt).toMatchObject({ published: false, document: { status: 404, soft_404: false } });
    expect(wk.llms_txt.title).toBeNull();
    expect(wk.sitemap).toMatchObject({ source: 'default', well_formed: null });
    expect(wk.security_txt.fields).toBeNull();
    const o = outcomes('wk-no-llms.test', wk);
    expect([o['llms.txt.present'], o['llms.txt.h1_title'], o['wellknown.security_txt.contact']]).toEqual([
      'fail',
      'not_applicable',
      'not_applicable',
    ]);
  });

  it('outlines a broken llms.txt and a malformed Link header', async () => {
    const wk = await observe('wk-bad-llms.test');
    expect(wk.llms_txt.document.content_type).toBe('text/html');
    expect(wk.llms_txt).toMatchObject({ title: null, starts_with_h1: false });
    expect(wk.llms_txt.parse_errors?.map((e) => e.code)).toEqual([
      'missing_h1',
      'heading_before_sections',
      'list_item_without_link',
    ]);
    expect(wk.discovery).toMatchObject({ link_header: true, links: [], link_parse_errors: 2 });
    const o = outcomes('wk-bad-llms.test', wk);
    expect([o['llms.txt.h1_title'], o['llms.txt.served_as_text'], o['discovery.link_header.parses']]).toEqual([
      'fail',
      'fail',
      'fail',
    ]);
  });

  it('reads an expired security.txt', async () => {
    const wk = await observe('wk-security-txt-expired.test');
    expect(wk.security_txt.document).toMatchObject({ content_type: 'text/plain', charset: null });
    expect(Date.parse(wk.security_txt.expires ?? '')).toBeLessThan(Date.parse(OBSERVED_AT));
    expect(wk.security_txt.insecure_uris).toEqual(['http://wk-security-txt-expired.test/policy']);
    const o = outcomes('wk-security-txt-expired.test', wk);
    expect(o['wellknown.security_txt.unexpired']).toBe('fail');
    expect(o['wellknown.security_txt.charset']).toBe('fail');
    expect(o['wellknown.security_txt.https_uris']).toBe('fail');
    expect(o['wellknown.security_txt.preferred_languages_once']).toBe('fail');
    expect(o['wellknown.security_txt.contact']).toBe('pass');
  });

  it('recognises a catch-all site by its soft 404s', async () => {
    const wk = await observe('wk-soft-404.test');
    expect(wk.robots).toMatchObject({
      published: false,
      document: { status: 200, soft_404: true, body_is_html: true },
    });
    expect(wk.llms_txt).toMatchObject({ published: false, document: { soft_404: true } });
    expect(wk.security_txt).toMatchObject({ published: false, document: { soft_404: true } });
    expect(wk.discovery.unknown_well_known.status).toBe(200);
    const o = outcomes('wk-soft-404.test', wk);
    expect([o['robots.txt.present'], o['robots.txt.parses_cleanly']]).toEqual(['fail', 'not_applicable']);
    expect(o['wellknown.unknown_path_status']).toBe('fail');
    // What the catch-all serves is not a published llms.txt or security.txt, so their validity rules do not apply.
    expect([o['llms.txt.present'], o['llms.txt.h1_title'], o['wellknown.security_txt.contact']]).toEqual([
      'fail',
      'not_applicable',
      'not_applicable',
    ]);
  });

  it('reports a sitemap that is not well-formed', async () => {
    const wk = await observe('wk-sitemap-broken.test');
    expect(wk.sitemap).toMatchObject({ source: 'robots', well_formed: false, root: null });
    expect(wk.sitemap.xml_error).toMatch(/^line 3: /);
    expect(outcomes('wk-sitemap-broken.test', wk)['discovery.sitemap.well_formed']).toBe('fail');
  });

  it('decompresses a gzip sitemap and counts its entries', async () => {
    const wk = await observe('wk-sitemap-gzip.test');
    expect(wk.sitemap).toMatchObject({
      gzip: true,
      well_formed: true,
      entry_count: 2,
      off_host: 1,
      lastmod_invalid: 1,
    });
    const o = outcomes('wk-sitemap-gzip.test', wk);
    expect([
      o['discovery.sitemap.same_host'],
      o['discovery.sitemap.lastmod_valid'],
      o['discovery.sitemap.locs_valid'],
    ]).toEqual(['fail', 'fail', 'pass']);
  });
});
