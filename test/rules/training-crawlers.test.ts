// Blocking training crawlers is a site's choice about its content, not a defect (issue 14 item 3): no required rule
// may read their robots.txt access, while user-initiated fetchers stay judged by a required rule.
import { describe, expect, it } from 'vitest';
import { catalogue } from '../suite/ruleset.ts';

const TRAINING_CRAWLERS = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Applebot-Extended', 'Meta-ExternalAgent'];
const USER_FETCHERS = ['ChatGPT-User', 'Claude-User', 'Perplexity-User', 'MistralAI-User', 'Meta-ExternalFetcher'];

const ruleset = catalogue();
const reads = (rule: { when?: unknown; check: unknown }, token: string) =>
  JSON.stringify([rule.when ?? null, rule.check]).includes(`wellknown.robots.access.${token}.`);

describe('robots.txt choices', () => {
  it.each(TRAINING_CRAWLERS)('no required rule reads the access of the training crawler %s', (token) => {
    const required = ruleset.rules.filter((r) => r.level === 'required' && reads(r, token)).map((r) => r.id);
    expect(required).toEqual([]);
  });

  it.each(USER_FETCHERS)('robots.txt.user_fetchers_allowed (required) reads the access of %s', (token) => {
    const rule = ruleset.rules.find((r) => r.id === 'robots.txt.user_fetchers_allowed')!;
    expect(rule.level).toBe('required');
    expect(reads(rule, token)).toBe(true);
  });
});
