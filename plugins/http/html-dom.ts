// Small readers over parse5's tree shared by the HTML facts: attributes, text and URL resolution.
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { ASCII_WHITESPACE, trimOf } from '../../src/lib/trim.ts';

export type { T };

export function isElement(node: T.Node): node is T.Element {
  return 'tagName' in node;
}

export function attr(el: T.Element, name: string): string | null {
  return el.attrs.find((a) => a.name === name)?.value ?? null;
}

/** The attribute's value trimmed, or null when absent or blank. */
export function nonBlank(el: T.Element, name: string): string | null {
  const v = trimOf(attr(el, name) ?? '', ASCII_WHITESPACE);
  return v === '' ? null : v;
}

export function collapse(text: string): string {
  return trimOf(text.replace(/\s+/g, ' '), ASCII_WHITESPACE);
}

/**
 * Visits `root` and every node below it in document order. `visit` returns the context a node's children are
 * visited in, or null to leave them out. A stack of its own, not recursion: parse5 nests as deep as the page
 * does, and a page of 5,000 nested elements overflowed the call stack.
 */
export function walkTree<C>(root: T.Node, rootCtx: C, visit: (node: T.Node, ctx: C) => C | null): void {
  const pending: [T.Node, C][] = [[root, rootCtx]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, ctx] = next;
    const inner = visit(node, ctx);
    if (inner === null || !('childNodes' in node)) continue;
    for (let i = node.childNodes.length - 1; i >= 0; i--) pending.push([node.childNodes[i]!, inner]);
  }
}

/** Text content without script and style: the text nodes joined by spaces (callers collapse white space). */
export function textOf(root: T.Node): string {
  const texts: string[] = [];
  walkTree(root, true, (node) => {
    if (node.nodeName === '#text') texts.push((node as T.TextNode).value);
    return isElement(node) && (node.tagName === 'script' || node.tagName === 'style') ? null : true;
  });
  return texts.join(' ');
}

export function resolve(href: string, base: string): URL | null {
  try {
    return new URL(trimOf(href, ASCII_WHITESPACE), base);
  } catch {
    return null;
  }
}

export function absoluteHttp(href: string): boolean {
  try {
    const u = new URL(trimOf(href, ASCII_WHITESPACE));
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
