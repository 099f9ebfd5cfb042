// The home page's HTML parsed with parse5 (the WHATWG parsing algorithm) into the facts agents and rules need.
// Scripting is off while parsing, so <noscript> content is parsed as markup: that is what a fetcher without
// a JavaScript engine gets.
import { parse, type DefaultTreeAdapterTypes as T } from 'parse5';
import type { HtmlFacet, JsonLd } from './types.ts';

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const NOT_RENDERED = new Set(['script', 'style', 'template', 'noscript', 'link', 'meta']);
const MOUNT_IDS = ['root', 'app', '__next', '__nuxt', '___gatsby'];
const FEED_TYPES = new Set(['application/rss+xml', 'application/atom+xml', 'application/feed+json']);
const ORGANIZATION_TYPES = new Set([
  'Organization',
  'Corporation',
  'LocalBusiness',
  'NewsMediaOrganization',
  'EducationalOrganization',
  'GovernmentOrganization',
  'NGO',
  'OnlineStore',
  'OnlineBusiness',
  'Person',
  'WebSite',
]);
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

function isElement(node: T.Node): node is T.Element {
  return 'tagName' in node;
}

function attr(el: T.Element, name: string): string | null {
  return el.attrs.find((a) => a.name === name)?.value ?? null;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function textOf(node: T.Node): string {
  if (node.nodeName === '#text') return (node as T.TextNode).value;
  if (!('childNodes' in node) || (isElement(node) && (node.tagName === 'script' || node.tagName === 'style')))
    return '';
  return node.childNodes.map(textOf).join(' ');
}

function resolve(href: string, base: string): URL | null {
  try {
    return new URL(href.trim(), base);
  } catch {
    return null;
  }
}

function absoluteHttp(href: string): boolean {
  try {
    const u = new URL(href.trim());
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

function relTokens(el: T.Element): string[] {
  return (attr(el, 'rel') ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== '');
}

interface Control {
  el: T.Element;
  inLabel: boolean;
}

function controlNamed({ el, inLabel }: Control, labelled: ReadonlySet<string>): boolean {
  const has = (name: string): boolean => (attr(el, name) ?? '').trim() !== '';
  if (inLabel || has('aria-label') || has('aria-labelledby') || has('title') || has('placeholder')) return true;
  const id = attr(el, 'id');
  if (id !== null && labelled.has(id)) return true;
  if (el.tagName === 'button') return collapse(textOf(el)) !== '';
  const type = (attr(el, 'type') ?? '').toLowerCase();
  if (type === 'submit' || type === 'reset') return true; // browsers give them a default label
  if (type === 'button') return has('value');
  if (type === 'image') return has('alt');
  return false;
}

function isControl(el: T.Element): boolean {
  if (el.tagName === 'select' || el.tagName === 'textarea' || el.tagName === 'button') return true;
  return el.tagName === 'input' && (attr(el, 'type') ?? '').toLowerCase() !== 'hidden';
}

function typesOf(node: Record<string, unknown>): string[] {
  const t = node['@type'];
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

function mentionsSchemaOrg(context: unknown): boolean {
  if (typeof context === 'string') return /^https?:\/\/schema\.org\/?$/.test(context.trim());
  if (Array.isArray(context)) return context.some(mentionsSchemaOrg);
  if (context !== null && typeof context === 'object')
    return mentionsSchemaOrg((context as Record<string, unknown>)['@vocab']);
  return false;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** JSON-LD blocks: parse errors, node types, and the site's identity node if one is published. */
export function extractJsonLd(blocks: readonly string[], visibleNames: readonly string[]): JsonLd {
  const parseErrors: string[] = [];
  const roots: Record<string, unknown>[] = [];
  blocks.forEach((text, i) => {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      parseErrors.push(`block ${i + 1}: ${(err as Error).message}`);
      return;
    }
    for (const root of Array.isArray(data) ? data : [data]) {
      if (isObject(root)) roots.push(root);
      else parseErrors.push(`block ${i + 1}: top-level item is not an object`);
    }
  });
  const nodes: Record<string, unknown>[] = [];
  for (const root of roots) {
    const graph = root['@graph'];
    if (Array.isArray(graph)) nodes.push(...graph.filter(isObject));
    if (!Array.isArray(graph) || typesOf(root).length > 0) nodes.push(root);
  }
  const types = [...new Set(nodes.flatMap(typesOf))].sort();
  const identityNode =
    nodes.find((n) => typesOf(n).some((t) => ORGANIZATION_TYPES.has(t) && t !== 'Person' && t !== 'WebSite')) ??
    nodes.find((n) => typesOf(n).includes('Person')) ??
    nodes.find((n) => typesOf(n).includes('WebSite'));
  const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const names = nodes.flatMap((n) => [str(n.name), str(n.headline)]).filter((s): s is string => s !== null);
  const haystack = visibleNames.map((s) => s.toLowerCase());
  const sameAs = identityNode?.sameAs;
  return {
    blocks: blocks.length,
    parse_errors: parseErrors,
    types,
    nodes: nodes.length,
    untyped_nodes: nodes.filter((n) => typesOf(n).length === 0).length,
    schema_org_context: roots.length === 0 ? null : roots.every((r) => mentionsSchemaOrg(r['@context'])),
    identity: identityNode
      ? {
          type: typesOf(identityNode)[0]!,
          name: str(identityNode.name),
          url: str(identityNode.url),
          logo: identityNode.logo !== undefined && identityNode.logo !== null,
          same_as: Array.isArray(sameAs) ? sameAs.length : typeof sameAs === 'string' ? 1 : 0,
        }
      : null,
    name_visible: names.length === 0 ? null : names.some((n) => haystack.some((h) => h.includes(n.toLowerCase()))),
  };
}

/** Parses an HTML document fetched from `pageUrl`; `htmlBytes` is the size of the decoded body. */
export function parseHtml(html: string, pageUrl: string, htmlBytes: number): HtmlFacet {
  const doc = parse(html, { scriptingEnabled: false });
  const pageOrigin = new URL(pageUrl).origin;
  let lang: string | null = null;
  const titles: string[] = [];
  let description: string | null = null;
  let metaCharset: string | null = null;
  let viewport: string | null = null;
  const robots: string[] = [];
  const canonical: string[] = [];
  const openGraph: Record<string, string> = {};
  const twitter: Record<string, string> = {};
  const jsonLdBlocks: string[] = [];
  const h1s: string[] = [];
  const texts: string[] = [];
  const noscriptTexts: string[] = [];
  let scripts = 0;
  let externalScripts = 0;
  let externalWithoutIntegrity = 0;
  let bodyElements = 0;
  let mountPoint: T.Element | null = null;
  const alternates: { type: string | null; href: string }[] = [];
  let llmsLink: string | null = null;
  const landmarks = { main: 0, nav: 0 };
  let images = 0;
  let imagesWithoutAlt = 0;
  const controls: Control[] = [];
  const labelled = new Set<string>();
  const insecure = new Set<string>();
  const cspMeta: string[] = [];

  const noteInsecure = (value: string | null): void => {
    if (value === null) return;
    const u = resolve(value, pageUrl);
    if (u?.protocol === 'http:') insecure.add(u.href);
  };

  const visitHead = (el: T.Element): void => {
    if (el.tagName === 'meta') {
      const name = (attr(el, 'name') ?? '').toLowerCase();
      const property = (attr(el, 'property') ?? '').toLowerCase();
      const content = attr(el, 'content');
      const charset = attr(el, 'charset');
      const httpEquiv = (attr(el, 'http-equiv') ?? '').toLowerCase();
      if (charset !== null) metaCharset ??= charset.trim().toLowerCase();
      if (httpEquiv === 'content-type' && content !== null) {
        const m = /charset\s*=\s*([^\s;]+)/i.exec(content);
        if (m) metaCharset ??= m[1]!.toLowerCase();
      }
      if (httpEquiv === 'content-security-policy' && content !== null) cspMeta.push(content);
      if (content === null) return;
      if (name === 'description') description ??= collapse(content);
      if (name === 'viewport') viewport ??= content.trim();
      if (name === 'robots') robots.push(content.trim().toLowerCase());
      const key = property.startsWith('og:') ? property : name.startsWith('og:') ? name : '';
      if (key !== '' && !Object.hasOwn(openGraph, key)) openGraph[key] = content.trim();
      const tkey = name.startsWith('twitter:') ? name : property.startsWith('twitter:') ? property : '';
      if (tkey !== '' && !Object.hasOwn(twitter, tkey)) twitter[tkey] = content.trim();
    } else if (el.tagName === 'link') {
      const rel = relTokens(el);
      const href = attr(el, 'href');
      if (href === null) return;
      const type = attr(el, 'type')?.trim().toLowerCase() ?? null;
      if (rel.includes('canonical')) canonical.push(href.trim());
      if (rel.includes('stylesheet')) noteInsecure(href);
      const abs = resolve(href, pageUrl);
      if (rel.includes('alternate') && abs) alternates.push({ type, href: abs.href });
      if (
        abs &&
        llmsLink === null &&
        (rel.some((r) => r.includes('llms')) || /\/llms(-full)?\.txt$/.test(abs.pathname))
      ) {
        llmsLink = abs.href;
      }
    }
  };

  const walk = (node: T.Node, inBody: boolean, inNoscript: boolean, inLabel: boolean): void => {
    if (node.nodeName === '#text') {
      if (inBody) (inNoscript ? noscriptTexts : texts).push((node as T.TextNode).value);
      return;
    }
    if (!isElement(node)) {
      if ('childNodes' in node) for (const child of node.childNodes) walk(child, inBody, inNoscript, inLabel);
      return;
    }
    const el = node;
    if (el.namespaceURI !== HTML_NS) return; // SVG and MathML carry no page metadata
    const tag = el.tagName;
    if (tag === 'html') lang = attr(el, 'lang')?.trim() || null;
    if (tag === 'title') titles.push(collapse(textOf(el)));
    visitHead(el);
    if (tag === 'script') {
      const type = (attr(el, 'type') ?? '').trim().toLowerCase();
      if (type === 'application/ld+json') {
        jsonLdBlocks.push(el.childNodes.map((c) => (c.nodeName === '#text' ? (c as T.TextNode).value : '')).join(''));
        return;
      }
      scripts += 1;
      const src = attr(el, 'src');
      const u = src === null ? null : resolve(src, pageUrl);
      if (u && u.origin !== pageOrigin) {
        externalScripts += 1;
        if ((attr(el, 'integrity') ?? '').trim() === '') externalWithoutIntegrity += 1;
      }
    }
    const subresource = SUBRESOURCE_ATTRS[tag];
    if (subresource !== undefined) noteInsecure(attr(el, subresource));
    if (tag === 'script' || tag === 'style' || tag === 'template') return;

    const role = (attr(el, 'role') ?? '').toLowerCase();
    if (tag === 'main' || role === 'main') landmarks.main += 1;
    if (tag === 'nav' || role === 'navigation') landmarks.nav += 1;
    if (tag === 'h1') h1s.push(collapse(textOf(el)));
    if (tag === 'img') {
      images += 1;
      if (attr(el, 'alt') === null) imagesWithoutAlt += 1;
    }
    if (tag === 'label') {
      const target = attr(el, 'for');
      if (target !== null) labelled.add(target);
    }
    if (isControl(el)) controls.push({ el, inLabel });
    if (inBody && !inNoscript && !NOT_RENDERED.has(tag)) bodyElements += 1;
    const id = attr(el, 'id');
    if (inBody && mountPoint === null && id !== null && MOUNT_IDS.includes(id)) mountPoint = el;
    for (const child of el.childNodes)
      walk(child, inBody || tag === 'body', inNoscript || tag === 'noscript', inLabel || tag === 'label');
  };
  walk(doc, false, false, false);

  const allText = collapse([...texts, ...noscriptTexts].join(' '));
  const mount = mountPoint as T.Element | null;
  const ogTitle = openGraph['og:title'];
  const title = titles[0] ?? null;
  const firstCanonical = canonical[0];
  const key = (a: { type: string | null; href: string }): string => `${a.href}\u0000${a.type ?? ''}`;
  const sortedAlternates = alternates.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

  return {
    parsed: true,
    document_mode: doc.mode,
    lang,
    title,
    title_count: titles.length,
    meta_description: description,
    meta_charset: metaCharset,
    viewport,
    robots: robots.length === 0 ? null : robots.join(', '),
    canonical,
    canonical_url: firstCanonical === undefined ? null : (resolve(firstCanonical, pageUrl)?.href ?? null),
    canonical_absolute: firstCanonical === undefined ? null : absoluteHttp(firstCanonical),
    open_graph: openGraph,
    twitter,
    json_ld: extractJsonLd(
      jsonLdBlocks,
      [title, ogTitle, ...h1s].filter((s): s is string => typeof s === 'string'),
    ),
    h1_count: h1s.length,
    h1_nonempty_count: h1s.filter((h) => h !== '').length,
    text_chars: allText.length,
    noscript_text_chars: collapse(noscriptTexts.join(' ')).length,
    word_count: allText === '' ? 0 : allText.split(' ').length,
    html_bytes: htmlBytes,
    script_count: scripts,
    external_scripts: externalScripts,
    external_scripts_without_integrity: externalWithoutIntegrity,
    body_elements: bodyElements,
    mount_point: mount === null ? null : attr(mount, 'id'),
    mount_point_empty:
      mount === null
        ? null
        : collapse(textOf(mount)) === '' &&
          !mount.childNodes.some((c) => isElement(c) && !['script', 'noscript', 'template'].includes(c.tagName)),
    alternates: sortedAlternates,
    markdown_alternate: sortedAlternates.find((a) => a.type === 'text/markdown')?.href ?? null,
    llms_link: llmsLink,
    feeds: [
      ...new Set(sortedAlternates.filter((a) => a.type !== null && FEED_TYPES.has(a.type)).map((a) => a.href)),
    ].sort(),
    landmarks,
    images,
    images_without_alt: imagesWithoutAlt,
    controls: controls.length,
    controls_unnamed: controls.filter((c) => !controlNamed(c, labelled)).length,
    insecure_subresources: [...insecure].sort(),
    csp_meta: cspMeta,
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
    insecure_subresources: [],
    csp_meta: [],
  };
}
