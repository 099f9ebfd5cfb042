// JSON-LD blocks of the page (<script type="application/ld+json">): parse errors, node types, and the site's
// identity node when one is published.
import type { JsonLd } from './types.ts';
import { ASCII_WHITESPACE, trimOf } from '../../src/lib/trim.ts';

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

function typesOf(node: Record<string, unknown>): string[] {
  const t = node['@type'];
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

function mentionsSchemaOrg(context: unknown): boolean {
  if (typeof context === 'string') return /^https?:\/\/schema\.org\/?$/.test(trimOf(context, ASCII_WHITESPACE));
  if (Array.isArray(context)) return context.some(mentionsSchemaOrg);
  if (context !== null && typeof context === 'object')
    return mentionsSchemaOrg((context as Record<string, unknown>)['@vocab']);
  return false;
}

/**
 * Names, and visible texts (the title, og:title, each h1), compared for name_visible: the first ones of each, and
 * so many characters of a text. Each pair is a substring search, and a 2 MiB page can declare and show tens of
 * thousands of each: 20,000 by 20,000 took 2.3 s. A real page has a handful of both.
 */
const MAX_COMPARED = 50;
const MAX_VISIBLE_TEXT = 1000;

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
    // One by one: spread as arguments, a graph of some 120,000 nodes overflows the call stack.
    if (Array.isArray(graph)) for (const node of graph) if (isObject(node)) nodes.push(node);
    if (!Array.isArray(graph) || typesOf(root).length > 0) nodes.push(root);
  }
  const types = [...new Set(nodes.flatMap(typesOf))].sort();
  const identityNode =
    nodes.find((n) => typesOf(n).some((t) => ORGANIZATION_TYPES.has(t) && t !== 'Person' && t !== 'WebSite')) ??
    nodes.find((n) => typesOf(n).includes('Person')) ??
    nodes.find((n) => typesOf(n).includes('WebSite'));
  const str = (v: unknown): string | null => {
    const text = typeof v === 'string' ? trimOf(v, ASCII_WHITESPACE) : '';
    return text === '' ? null : text;
  };
  const names = nodes.flatMap((n) => [str(n.name), str(n.headline)]).filter((s): s is string => s !== null);
  const sought = names.slice(0, MAX_COMPARED).map((n) => n.toLowerCase());
  const haystack = visibleNames.slice(0, MAX_COMPARED).map((s) => s.slice(0, MAX_VISIBLE_TEXT).toLowerCase());
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
    name_visible: names.length === 0 ? null : sought.some((n) => haystack.some((h) => h.includes(n))),
  };
}
