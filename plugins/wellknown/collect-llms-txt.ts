// The llms_txt and llms_full_txt facets: /llms.txt outlined per llmstxt.org, and /llms-full.txt (a popular
// convention without a fixed format) reduced to its response and first heading.
import { firstHeading, parseLlmsTxt, type ParsedLlmsTxt } from './parse-llms-txt.ts';
import { lineExcerpt, type LinePointer } from '../shared/line-excerpt.ts';
import type { DocumentFetcher } from '../shared/fetch-document.ts';

/** Links listed in the facts; the counts cover all of them. */
const LINKS_LISTED = 200;
const MARKDOWN_TARGET = /\.(?:md|markdown|txt)$/i;

function pathOf(url: string): string {
  return url.split(/[?#]/)[0] ?? '';
}

/**
 * The lines the facts point at, most telling first: those that break the outline (a list item without a link is
 * also what the sections' counts report), the H1 headings, then the links that are http:, relative or not to a
 * markdown file.
 */
function* llmsPointers(p: ParsedLlmsTxt): Generator<LinePointer> {
  for (const e of p.errors) {
    yield ['parse_errors', e.line];
    if (e.code === 'list_item_without_link') yield ['sections', e.line];
  }
  for (const n of p.h1Lines) {
    yield ['h1_count', n];
    yield ['title', n];
  }
  for (const l of p.links) if (/^http:/i.test(l.url)) yield ['http_link_count', l.line];
  for (const l of p.links) if (!l.absolute) yield ['absolute_link_count', l.line];
  for (const l of p.links) if (!MARKDOWN_TARGET.test(pathOf(l.url))) yield ['markdown_link_count', l.line];
}

export async function collectLlmsTxt(f: DocumentFetcher) {
  const { published, document, exchange: ex } = await f.open('/llms.txt');
  const p = published && ex ? parseLlmsTxt(ex.body, ex.truncated) : null;
  return {
    published,
    document,
    characters: p?.characters ?? null,
    title: p?.title ?? null,
    h1_count: p?.h1Count ?? null,
    starts_with_h1: p?.startsWithH1 ?? null,
    summary: p?.summary ?? null,
    sections:
      p?.sections.map((s) => ({ title: s.title, line: s.line, items: s.items, link_items: s.linkItems })) ?? null,
    links:
      p?.links
        .slice(0, LINKS_LISTED)
        .map((l) => ({ section: l.section, title: l.title, url: l.url, notes: l.notes, absolute: l.absolute })) ?? null,
    link_count: p?.links.length ?? null,
    absolute_link_count: p ? p.links.filter((l) => l.absolute).length : null,
    http_link_count: p ? p.links.filter((l) => /^http:/i.test(l.url)).length : null,
    markdown_link_count: p ? p.links.filter((l) => MARKDOWN_TARGET.test(pathOf(l.url))).length : null,
    parse_errors: p?.errors ?? null,
    excerpt: p ? lineExcerpt(p.text, llmsPointers(p)) : null,
  };
}

export async function collectLlmsFullTxt(f: DocumentFetcher) {
  const { published, document, exchange: ex } = await f.open('/llms-full.txt');
  const heading = published && ex ? firstHeading(ex.body, ex.truncated) : null;
  return { published, document, first_heading: heading?.text ?? null, first_heading_level: heading?.level ?? null };
}
