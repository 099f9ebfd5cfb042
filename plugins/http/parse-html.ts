// The home page's HTML parsed with parse5 (the WHATWG parsing algorithm) into the facts agents and rules need.
// Scripting is off while parsing, so <noscript> content is parsed as markup: that is what a fetcher without
// a JavaScript engine gets.
import { html as HTML, parse } from 'parse5';
import {
  hasAccessibleName,
  isControl,
  isRendered,
  renderingOf,
  RENDERED,
  type Control,
  type Rendering,
} from './html-controls.ts';
import { absoluteHttp, attr, collapse, isElement, resolve, textOf, tokens, walkTree, type T } from './html-dom.ts';
import { extractJsonLd } from './html-jsonld.ts';
import { isParameterField, webMcpTools, type FieldInContext } from './html-webmcp.ts';
import type { HtmlFacet } from './types.ts';
import { ASCII_WHITESPACE, trimOf } from '../../src/lib/trim.ts';

const NOT_RENDERED = new Set(['script', 'style', 'template', 'noscript', 'link', 'meta']);
const MOUNT_IDS = ['root', 'app', '__next', '__nuxt', '___gatsby'];
const FEED_TYPES = new Set(['application/rss+xml', 'application/atom+xml', 'application/feed+json']);
// Subresources that make a page mixed content when fetched over http: (W3C Mixed Content).
const SUBRESOURCE_ATTRS: Record<string, string> = {
  script: 'src',
  img: 'src',
  iframe: 'src',
  audio: 'src',
  video: 'src',
  source: 'src',
  embed: 'src',
  track: 'src',
  object: 'data',
  form: 'action',
};

interface Alternate {
  type: string | null;
  href: string;
}

/** Where the walk is: inside <body>, inside <noscript>, the nearest <form> and <label>, and what is rendered. */
interface Context {
  inBody: boolean;
  inNoscript: boolean;
  form: T.Element | null;
  label: T.Element | null;
  rendering: Rendering;
  parent: T.Element | null;
}

/** Gathers the page's facts in one walk of the tree. */
class PageWalker {
  lang: string | null = null;
  readonly titles: string[] = [];
  description: string | null = null;
  metaCharset: string | null = null;
  viewport: string | null = null;
  readonly robots: string[] = [];
  readonly canonical: string[] = [];
  readonly openGraph: Record<string, string> = {};
  readonly twitter: Record<string, string> = {};
  readonly jsonLdBlocks: string[] = [];
  readonly h1s: string[] = [];
  readonly texts: string[] = [];
  readonly noscriptTexts: string[] = [];
  scripts = 0;
  externalScripts = 0;
  externalWithoutIntegrity = 0;
  bodyElements = 0;
  mountPoint: T.Element | null = null;
  readonly alternates: Alternate[] = [];
  llmsLink: string | null = null;
  /** The first <link rel="manifest"> with a non-empty href (HTML: the first in tree order is the one used). */
  manifestLink: string | null | undefined = undefined;
  readonly landmarks = { main: 0, nav: 0 };
  images = 0;
  imagesWithoutAlt = 0;
  readonly controls: Control[] = [];
  hiddenControls = 0;
  readonly elementById = new Map<string, T.Element>();
  readonly labelsFor = new Map<string, T.Element[]>();
  readonly insecure = new Set<string>();
  readonly cspMeta: string[] = [];
  /** Forms declaring a WebMCP tool, and the fields that may be their parameters (none inside <noscript>). */
  readonly toolForms: T.Element[] = [];
  readonly fields: FieldInContext[] = [];
  private readonly origin: string;

  constructor(private readonly pageUrl: string) {
    this.origin = new URL(pageUrl).origin;
  }

  private noteInsecure(value: string | null): void {
    if (value === null) return;
    const u = resolve(value, this.pageUrl);
    if (u?.protocol === 'http:') this.insecure.add(u.href);
  }

  private visitMeta(el: T.Element): void {
    const name = (attr(el, 'name') ?? '').toLowerCase();
    const property = (attr(el, 'property') ?? '').toLowerCase();
    const content = attr(el, 'content');
    const charset = attr(el, 'charset');
    const httpEquiv = (attr(el, 'http-equiv') ?? '').toLowerCase();
    if (charset !== null) this.metaCharset ??= trimOf(charset, ASCII_WHITESPACE).toLowerCase();
    if (httpEquiv === 'content-type' && content !== null) {
      const m = /charset\s*=\s*([^\s;]+)/i.exec(content);
      if (m) this.metaCharset ??= m[1]!.toLowerCase();
    }
    if (httpEquiv === 'content-security-policy' && content !== null) this.cspMeta.push(content);
    if (content === null) return;
    if (name === 'description') this.description ??= collapse(content);
    if (name === 'viewport') this.viewport ??= trimOf(content, ASCII_WHITESPACE);
    if (name === 'robots') this.robots.push(trimOf(content, ASCII_WHITESPACE).toLowerCase());
    const key = property.startsWith('og:') ? property : name.startsWith('og:') ? name : '';
    if (key !== '' && !Object.hasOwn(this.openGraph, key)) this.openGraph[key] = trimOf(content, ASCII_WHITESPACE);
    const tkey = name.startsWith('twitter:') ? name : property.startsWith('twitter:') ? property : '';
    if (tkey !== '' && !Object.hasOwn(this.twitter, tkey)) this.twitter[tkey] = trimOf(content, ASCII_WHITESPACE);
  }

  private visitLink(el: T.Element): void {
    const rel = tokens(el, 'rel');
    const href = attr(el, 'href');
    if (href === null) return;
    const typeAttr = attr(el, 'type');
    const type = typeAttr === null ? null : trimOf(typeAttr, ASCII_WHITESPACE).toLowerCase();
    if (rel.includes('canonical')) this.canonical.push(trimOf(href, ASCII_WHITESPACE));
    if (rel.includes('stylesheet')) this.noteInsecure(href);
    const abs = resolve(href, this.pageUrl);
    if (rel.includes('manifest') && this.manifestLink === undefined)
      this.manifestLink = trimOf(href, ASCII_WHITESPACE) === '' ? null : (abs?.href ?? null);
    if (abs === null) return;
    if (rel.includes('alternate')) this.alternates.push({ type, href: abs.href });
    if (this.llmsLink === null && (rel.some((r) => r.includes('llms')) || /\/llms(-full)?\.txt$/.test(abs.pathname)))
      this.llmsLink = abs.href;
  }

  /** A <script>: JSON-LD data blocks apart, the others counted with their origin and integrity. */
  private visitScript(el: T.Element): void {
    const type = trimOf(attr(el, 'type') ?? '', ASCII_WHITESPACE).toLowerCase();
    if (type === 'application/ld+json') {
      this.jsonLdBlocks.push(
        el.childNodes.map((c) => (c.nodeName === '#text' ? (c as T.TextNode).value : '')).join(''),
      );
      return;
    }
    this.scripts += 1;
    const src = attr(el, 'src');
    const u = src === null ? null : resolve(src, this.pageUrl);
    if (u && u.origin !== this.origin) {
      this.externalScripts += 1;
      if (trimOf(attr(el, 'integrity') ?? '', ASCII_WHITESPACE) === '') this.externalWithoutIntegrity += 1;
    }
  }

  /** The body-content facts of an element: landmarks, headings, images, labels, controls, mount point. */
  private visitContent(el: T.Element, ctx: Context): void {
    const tag = el.tagName;
    const role = (attr(el, 'role') ?? '').toLowerCase();
    if (tag === 'main' || role === 'main') this.landmarks.main += 1;
    if (tag === 'nav' || role === 'navigation') this.landmarks.nav += 1;
    if (tag === 'h1') this.h1s.push(collapse(textOf(el)));
    if (tag === 'img') {
      this.images += 1;
      if (attr(el, 'alt') === null) this.imagesWithoutAlt += 1;
    }
    const id = attr(el, 'id');
    if (id !== null && !this.elementById.has(id)) this.elementById.set(id, el);
    const target = tag === 'label' ? attr(el, 'for') : null;
    if (target !== null) {
      const labels = this.labelsFor.get(target);
      if (labels) labels.push(el);
      else this.labelsFor.set(target, [el]);
    }
    if (isControl(el)) {
      if (isRendered(ctx.rendering)) this.controls.push({ el, label: ctx.label });
      else this.hiddenControls += 1;
    }
    if (!ctx.inNoscript && tag === 'form' && attr(el, 'toolname') !== null) this.toolForms.push(el);
    if (!ctx.inNoscript && isParameterField(el)) this.fields.push({ el, form: ctx.form, label: ctx.label });
    if (ctx.inBody && !ctx.inNoscript && !NOT_RENDERED.has(tag)) this.bodyElements += 1;
    if (ctx.inBody && this.mountPoint === null && id !== null && MOUNT_IDS.includes(id)) this.mountPoint = el;
  }

  /** Visits the tree in document order (walkTree: deep pages do not overflow the call stack). */
  walk(root: T.Node, rootCtx: Context): void {
    walkTree(root, rootCtx, (node, ctx) => this.visit(node, ctx));
  }

  /** The facts of one node, and the context its children are read in (null when they are not read). */
  private visit(node: T.Node, ctx: Context): Context | null {
    if (node.nodeName === '#text') {
      if (ctx.inBody) (ctx.inNoscript ? this.noscriptTexts : this.texts).push((node as T.TextNode).value);
      return null;
    }
    if (!isElement(node)) return ctx;
    const el = node;
    if (el.namespaceURI !== HTML.NS.HTML) return null; // SVG and MathML carry no page metadata
    const tag: string = el.tagName;
    if (tag === 'html') this.lang = trimOf(attr(el, 'lang') ?? '', ASCII_WHITESPACE) || null;
    if (tag === 'title') this.titles.push(collapse(textOf(el)));
    if (tag === 'meta') this.visitMeta(el);
    if (tag === 'link') this.visitLink(el);
    if (tag === 'script') this.visitScript(el);
    const subresource = SUBRESOURCE_ATTRS[tag];
    if (subresource !== undefined) this.noteInsecure(attr(el, subresource));
    if (tag === 'script' || tag === 'style' || tag === 'template') return null;
    const rendering = renderingOf(el, ctx.rendering, ctx.parent);
    this.visitContent(el, { ...ctx, rendering });
    return {
      inBody: ctx.inBody || tag === 'body',
      inNoscript: ctx.inNoscript || tag === 'noscript',
      form: tag === 'form' ? el : ctx.form,
      label: tag === 'label' ? el : ctx.label,
      rendering,
      parent: el,
    };
  }
}

function sortAlternates(alternates: Alternate[]): Alternate[] {
  const key = (a: Alternate): string => `${a.href}\u0000${a.type ?? ''}`;
  return alternates.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function mountPointEmpty(mount: T.Element): boolean {
  return (
    collapse(textOf(mount)) === '' &&
    !mount.childNodes.some((c) => isElement(c) && !['script', 'noscript', 'template'].includes(c.tagName))
  );
}

/** The page's facts, and the links a probe follows that the html facet does not record. */
export interface ParsedPage {
  html: HtmlFacet;
  /** The manifest URL the page links, resolved against the page; null when none (or its href is empty). */
  manifestLink: string | null;
}

/** Parses an HTML document fetched from `pageUrl`; `htmlBytes` is the size of the decoded body. */
export function parsePage(html: string, pageUrl: string, htmlBytes: number): ParsedPage {
  const doc = parse(html, { scriptingEnabled: false });
  const w = new PageWalker(pageUrl);
  w.walk(doc, { inBody: false, inNoscript: false, form: null, label: null, rendering: RENDERED, parent: null });
  return { html: facts(w, doc.mode, pageUrl, htmlBytes), manifestLink: w.manifestLink ?? null };
}

export function parseHtml(html: string, pageUrl: string, htmlBytes: number): HtmlFacet {
  return parsePage(html, pageUrl, htmlBytes).html;
}

function facts(w: PageWalker, mode: HtmlFacet['document_mode'], pageUrl: string, htmlBytes: number): HtmlFacet {
  const allText = collapse([...w.texts, ...w.noscriptTexts].join(' '));
  const title = w.titles[0] ?? null;
  const firstCanonical = w.canonical[0];
  const alternates = sortAlternates(w.alternates);
  const visibleNames = [title, w.openGraph['og:title'], ...w.h1s].filter((s): s is string => typeof s === 'string');
  return {
    parsed: true,
    document_mode: mode,
    lang: w.lang,
    title,
    title_count: w.titles.length,
    meta_description: w.description,
    meta_charset: w.metaCharset,
    viewport: w.viewport,
    robots: w.robots.length === 0 ? null : w.robots.join(', '),
    canonical: w.canonical,
    canonical_url: firstCanonical === undefined ? null : (resolve(firstCanonical, pageUrl)?.href ?? null),
    canonical_absolute: firstCanonical === undefined ? null : absoluteHttp(firstCanonical),
    open_graph: w.openGraph,
    twitter: w.twitter,
    json_ld: extractJsonLd(w.jsonLdBlocks, visibleNames),
    h1_count: w.h1s.length,
    h1_nonempty_count: w.h1s.filter((h) => h !== '').length,
    text_chars: allText.length,
    noscript_text_chars: collapse(w.noscriptTexts.join(' ')).length,
    word_count: allText === '' ? 0 : allText.split(' ').length,
    html_bytes: htmlBytes,
    script_count: w.scripts,
    external_scripts: w.externalScripts,
    external_scripts_without_integrity: w.externalWithoutIntegrity,
    body_elements: w.bodyElements,
    mount_point: w.mountPoint === null ? null : attr(w.mountPoint, 'id'),
    mount_point_empty: w.mountPoint === null ? null : mountPointEmpty(w.mountPoint),
    alternates,
    markdown_alternate: alternates.find((a) => a.type === 'text/markdown')?.href ?? null,
    llms_link: w.llmsLink,
    feeds: [...new Set(alternates.filter((a) => a.type !== null && FEED_TYPES.has(a.type)).map((a) => a.href))].sort(),
    landmarks: w.landmarks,
    images: w.images,
    images_without_alt: w.imagesWithoutAlt,
    controls: w.controls.length,
    controls_unnamed: w.controls.filter((c) => !hasAccessibleName(c, w)).length,
    controls_not_rendered: w.hiddenControls,
    insecure_subresources: [...w.insecure].sort(),
    csp_meta: w.cspMeta,
    webmcp: webMcpTools(w.toolForms, w.fields, w),
  };
}

/** The facet for a response that is not HTML (nothing parsed). */
export function emptyHtml(htmlBytes: number): HtmlFacet {
  return {
    parsed: false,
    document_mode: null,
    lang: null,
    title: null,
    title_count: 0,
    meta_description: null,
    meta_charset: null,
    viewport: null,
    robots: null,
    canonical: [],
    canonical_url: null,
    canonical_absolute: null,
    open_graph: {},
    twitter: {},
    json_ld: extractJsonLd([], []),
    h1_count: 0,
    h1_nonempty_count: 0,
    text_chars: 0,
    noscript_text_chars: 0,
    word_count: 0,
    html_bytes: htmlBytes,
    script_count: 0,
    external_scripts: 0,
    external_scripts_without_integrity: 0,
    body_elements: 0,
    mount_point: null,
    mount_point_empty: null,
    alternates: [],
    markdown_alternate: null,
    llms_link: null,
    feeds: [],
    landmarks: { main: 0, nav: 0 },
    images: 0,
    images_without_alt: 0,
    controls: 0,
    controls_unnamed: 0,
    controls_not_rendered: 0,
    insecure_subresources: [],
    csp_meta: [],
    webmcp: { tools_count: 0, tools: [], duplicate_names: [] },
  };
}
