// Facts about catalogue documents: the RFC 9727 API catalog (an RFC 9264 JSON linkset) and the entry lists of
// the MCP Catalog and the ARD AI Catalog, which share one shape (`specVersion`, `entries[]`).
import { asArray, asObject, asString } from './json-value.ts';

export interface LinksetFacts {
  linkset_present: boolean;
  contexts_count: number | null;
  /** Contexts a reader cannot place: no `anchor`, or one that does not resolve against the catalog's URL. */
  contexts_without_resolvable_anchor_count: number | null;
  contexts_without_absolute_anchor_count: number | null;
  relations: string[];
  links_without_href_count: number;
  service_desc_count: number;
  service_doc_count: number;
  item_count: number;
}

function isAbsoluteUrl(value: unknown): boolean {
  return typeof value === 'string' && URL.canParse(value);
}

/**
 * RFC 9264 section 4.2.2 lets an anchor be a relative reference (it SHOULD NOT be), and section 6 has readers
 * determine its context, ignoring links they cannot place: against the catalog's own URL a relative anchor is
 * placed without doubt; a missing one is not.
 */
function isResolvableUrl(value: unknown, base: string | null): boolean {
  return typeof value === 'string' && (URL.canParse(value) || (base !== null && URL.canParse(value, base)));
}

export function inspectLinkset(json: unknown, base: string | null = null): LinksetFacts {
  const contexts = asArray(asObject(json)?.linkset);
  const relations = new Set<string>();
  // No prototype: a relation may be named constructor or __proto__.
  const counts = Object.create(null) as Record<string, number>;
  let withoutHref = 0;
  let withoutAnchor = 0;
  let unresolvable = 0;
  for (const item of contexts ?? []) {
    const context = asObject(item);
    if (!context || !isAbsoluteUrl(context.anchor)) withoutAnchor += 1;
    if (!context || !isResolvableUrl(context.anchor, base)) unresolvable += 1;
    for (const [rel, targets] of Object.entries(context ?? {})) {
      if (rel === 'anchor') continue;
      relations.add(rel);
      for (const target of asArray(targets) ?? [targets]) {
        counts[rel] = (counts[rel] ?? 0) + 1;
        if (asString(asObject(target)?.href) === null) withoutHref += 1;
      }
    }
  }
  return {
    linkset_present: contexts !== null,
    contexts_count: contexts ? contexts.length : null,
    contexts_without_resolvable_anchor_count: contexts ? unresolvable : null,
    contexts_without_absolute_anchor_count: contexts ? withoutAnchor : null,
    relations: [...relations].sort(),
    links_without_href_count: withoutHref,
    service_desc_count: counts['service-desc'] ?? 0,
    service_doc_count: counts['service-doc'] ?? 0,
    item_count: counts.item ?? 0,
  };
}

export interface EntryCatalogFacts {
  spec_version: string | null;
  entries_count: number | null;
  entries_incomplete_count: number | null;
  entry_types: string[];
}

/** An entry names itself, says what it points to, and either links to it or carries it inline. */
function entryComplete(item: unknown): boolean {
  const entry = asObject(item);
  return (
    entry !== null &&
    typeof entry.identifier === 'string' &&
    typeof entry.displayName === 'string' &&
    typeof entry.type === 'string' &&
    (typeof entry.url === 'string' || entry.data !== undefined)
  );
}

export function inspectEntryCatalog(json: unknown): EntryCatalogFacts {
  const doc = asObject(json);
  const entries = asArray(doc?.entries);
  const types = new Set<string>();
  for (const e of entries ?? []) {
    const type = asString(asObject(e)?.type);
    if (type !== null) types.add(type);
  }
  return {
    spec_version: asString(doc?.specVersion),
    entries_count: entries ? entries.length : null,
    entries_incomplete_count: entries ? entries.filter((e) => !entryComplete(e)).length : null,
    entry_types: [...types].sort(),
  };
}
