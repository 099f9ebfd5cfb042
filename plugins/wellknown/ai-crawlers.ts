// The crawler product tokens whose robots.txt access the probe reports, from each vendor's own crawler
// documentation: AI crawlers and fetchers, plus the two search crawlers that feed AI answers. Rules name the
// tokens they judge; this list only decides which tokens are observed. Adding a token is a schema change.
import type { WellknownObservations } from '../../src/lib/schema-types/observations/wellknown.ts';

/** A token `robots.access` holds, as the schema lists them. */
export type CrawlerToken = keyof NonNullable<WellknownObservations['robots']>['access'];

export const AI_CRAWLER_TOKENS = [
  // OpenAI
  'GPTBot',
  'OAI-SearchBot',
  'ChatGPT-User',
  'OAI-AdsBot',
  // Anthropic (anthropic-ai and Claude-Web are retired tokens still found in files)
  'ClaudeBot',
  'Claude-SearchBot',
  'Claude-User',
  'anthropic-ai',
  'Claude-Web',
  // Google (Google-Extended is a robots-only token; AI Overviews are fed by Googlebot)
  'Googlebot',
  'Google-Extended',
  'GoogleOther',
  'Google-CloudVertexBot',
  // Microsoft
  'Bingbot',
  // Apple
  'Applebot',
  'Applebot-Extended',
  // Perplexity
  'PerplexityBot',
  'Perplexity-User',
  // Meta
  'Meta-ExternalAgent',
  'Meta-ExternalFetcher',
  'FacebookBot',
  // Others
  'CCBot',
  'Bytespider',
  'Amazonbot',
  'MistralAI-User',
  'DuckAssistBot',
  'cohere-ai',
  'cohere-training-data-crawler',
] as const satisfies readonly CrawlerToken[];

/** The paths whose access is reported per token, by fact name. The sitemap path is added per site. */
export const PROBED_PATHS = {
  root: '/',
  llms_txt: '/llms.txt',
  well_known: '/.well-known/',
} as const;
