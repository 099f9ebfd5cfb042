// Small readers over parse5's tree shared by the HTML facts: attributes, text and URL resolution.
import type { DefaultTreeAdapterTypes as T } from 'parse5';

export type { T };

export function isElement(node: T.Node): node is T.Element {
  return 'tagName' in node;
}

export function attr(el: T.Element, name: string): string | null {
  return el.attrs.find((a) => a.name === name)?.value ?? null;
}

/** The attribute's value trimmed, or null when absent or blank. */
export function nonBlank(el: T.Element, name: string): string | null {
  const v = attr(el, name)?.trim() ?? '';
  return v === '' ? null : v;
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Text content without script and style. */
export function textOf(node: T.Node): string {
  if (node.nodeName === '#text') return (node as T.TextNode).value;
  if (!('childNodes' in node) || (isElement(node) && (node.tagName === 'script' || node.tagName === 'style')))
    return '';
  return node.childNodes.map(textOf).join(' ');
}

export function resolve(href: string, base: string): URL | null {
  try {
    return new URL(href.trim(), base);
  } catch {
    return null;
  }
}

export function absoluteHttp(href: string): boolean {
  try {
    const u = new URL(href.trim());
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** A space-separated token list attribute (rel, aria-labelledby), lower-cased when asked. */
export function tokens(el: T.Element, name: string, lower = true): string[] {
  const v = attr(el, name) ?? '';
  return (lower ? v.toLowerCase() : v).split(/[\t\n\f\r ]+/).filter((t) => t !== '');
}
