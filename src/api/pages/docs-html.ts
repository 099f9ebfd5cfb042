// The guides as HTML for browsers: markdown-it renders them, markdown-it-anchor gives every heading an id, so
// the `docs` links of error bodies (`/docs/api#limits`) and the report pages' rule links scroll to their place.
import type { Token } from 'markdown-it';
import { lazyRequire } from '../../lib/lazy-require.ts';
import { renderPage } from './page-layout.ts';
import { ASCII_WHITESPACE, trimOf } from '../../lib/trim.ts';

// Loaded with the first page rendered: a service that serves no guide page never imports them.
const markdownIt = lazyRequire<typeof import('markdown-it').default>('markdown-it');
const markdownItAnchor = lazyRequire<typeof import('markdown-it-anchor').default>('markdown-it-anchor');

/**
 * Heading text to anchor: lower case, spaces to hyphens, punctuation dropped except `.`, `_` and `-`, so rule
 * ids survive whole (GitHub's slugs drop the dots).
 */
export function slugify(text: string): string {
  return trimOf(text, ASCII_WHITESPACE)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s._-]/gu, '')
    .replace(/\s+/g, '-');
}

/** A heading that starts with code (the rule catalogue's "`dns.caa.present` (v2)") is anchored by that code. */
function headingText(tokens: Token[]): string {
  const first = tokens[0];
  if (first?.type === 'code_inline') return first.content;
  return tokens
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join('');
}

// Raw HTML in the text stays text: rule prose mentions tags such as <script>, which would otherwise open an
// HTML block that swallows the rest of the page.
function newRenderer() {
  const anchor = markdownItAnchor();
  return new (markdownIt())({ html: false, linkify: false, typographer: false }).use(anchor, {
    level: [1, 2, 3, 4],
    slugify,
    getTokensText: headingText,
    permalink: anchor.permalink.headerLink({ safariReaderFix: true }),
  });
}
let md: ReturnType<typeof newRenderer> | null = null;

/** Comments on a line of their own are notes for whoever edits the markdown (generated-file warnings). */
const COMMENT_LINE = /^<!--.*-->\n/gm;

export function markdownToHtml(markdown: string): string {
  md ??= newRenderer();
  return md.render(markdown.replace(COMMENT_LINE, ''));
}

/** The page title: the guide's first level-1 heading. */
function titleOf(markdown: string, fallback: string): string {
  return /^# (.+)$/m.exec(markdown)?.[1]?.replace(/`/g, '') ?? fallback;
}

/** A guide as a whole page, naming its markdown form for agents that would rather read that. */
export function guidePage(name: string, markdown: string): string {
  return renderPage({
    title: titleOf(markdown, name),
    head: `<link rel="alternate" type="text/markdown" href="/docs/${name}.md">\n`,
    body: markdownToHtml(markdown),
  });
}
