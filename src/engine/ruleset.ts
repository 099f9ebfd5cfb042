// The ruleset a run judges with: every rule loaded, compiled and ordered, and the observation schemas probe output
// is checked against. Reading and checking the rule files is the catalogue's job (src/catalogue/load-ruleset.ts,
// src/catalogue/compiled-ruleset.ts); the engine only uses what they give.
import type { SchemaNode } from './schema-paths.ts';
import type { LoadedRule } from './types.ts';

/** The observation schemas as the engine and its callers use them (src/catalogue/observation-schemas.ts). */
export interface ObservationValidation {
  /** Probe namespace -> its schema document. */
  readonly namespaces: ReadonlyMap<string, Record<string, unknown>>;
  /** Validates one namespace of a document; returns an error text or null. */
  validate(namespace: string, value: unknown, mode: 'complete' | 'partial'): string | null;
  /** Validates every namespace of a (partial) observations document. */
  validateDocument(doc: Record<string, unknown>, mode: 'complete' | 'partial'): string | null;
  /** The schema nodes a dotted path can reach from the document root; empty when no schema defines it. */
  resolve(dotted: string): SchemaNode[];
}

export interface Ruleset {
  version: string;
  /** SHA-256 over the ruleset version and every rule's id, version and digest. */
  digest: string;
  /** Ordered by id. */
  rules: LoadedRule[];
  byId: ReadonlyMap<string, LoadedRule>;
  schemas: ObservationValidation;
}
