// Content-Security-Policy (CSP Level 3) parsed with the spec's own algorithms: "parse a serialized CSP list"
// (section 2.2.2) splits on commas, "parse a serialized CSP" (section 2.2.1) splits on semicolons, lower-cases
// directive names and ignores a repeated directive. Source lists are read against the source-expression
// grammar (csp-source.ts). The facts name, for each kind of content the rules look at, the directive that
// governs it after the fallback lists of section 6.8.3 (script-src-elem -> script-src -> default-src, ...),
// and whether that list allows all inline content (section 6.7.3.3).
import { parseSourceExpression, type SourceExpression } from './csp-source.ts';
import { GrammarError } from '../../src/lib/http-grammar.ts';
import type { CspEffective, CspPolicy } from './types.ts';
import { ASCII_WHITESPACE, trimOf } from '../../src/lib/trim.ts';

const SOURCE_LIST_DIRECTIVES = new Set([
  'base-uri',
  'child-src',
  'connect-src',
  'default-src',
  'fenced-frame-src',
  'font-src',
  'form-action',
  'frame-ancestors',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'navigate-to',
  'object-src',
  'prefetch-src',
  'script-src',
  'script-src-attr',
  'script-src-elem',
  'style-src',
  'style-src-attr',
  'style-src-elem',
  'worker-src',
]);

const OTHER_DIRECTIVES = new Set([
  'block-all-mixed-content',
  'plugin-types',
  'report-to',
  'report-uri',
  'require-trusted-types-for',
  'sandbox',
  'trusted-types',
  'upgrade-insecure-requests',
  'webrtc',
]);

/** directive-name = 1*( ALPHA / DIGIT / "-" ) */
const DIRECTIVE_NAME = /^[a-z0-9-]+$/;
const WHITESPACE_RUN = /[\t\n\f\r ]+/;
/** Fallback lists (section 6.8.3) for the kinds of content the facts describe. */
const FALLBACKS = {
  script_elem: ['script-src-elem', 'script-src', 'default-src'],
  script_attr: ['script-src-attr', 'script-src', 'default-src'],
  // eval and new Function are checked against script-src, else default-src (section 4.4).
  script: ['script-src', 'default-src'],
  style_elem: ['style-src-elem', 'style-src', 'default-src'],
  style_attr: ['style-src-attr', 'style-src', 'default-src'],
  object: ['object-src', 'default-src'],
} as const;
type InlineType = 'script' | 'style' | null;
const INLINE_TYPE: Record<keyof typeof FALLBACKS, InlineType> = {
  script_elem: 'script',
  script_attr: 'script',
  script: null,
  style_elem: 'style',
  style_attr: 'style',
  object: null,
};

interface ParsedDirective {
  name: string;
  value: string[];
}

/** Section 2.2.1: the directives of one policy, first occurrence kept, with the names that were dropped. */
function parseDirectives(serialized: string): { directives: ParsedDirective[]; duplicates: string[] } {
  const directives: ParsedDirective[] = [];
  // Names seen, so that a header of thousands of directives is read in one pass, not compared pairwise.
  const names = new Set<string>();
  const duplicates = new Set<string>();
  for (const raw of serialized.split(';')) {
    const token = trimOf(raw, ASCII_WHITESPACE);
    // A token with non-ASCII code points is skipped by the algorithm.
    if (token === '' || /[^\p{ASCII}]/u.test(token)) continue;
    const [first = '', ...value] = token.split(WHITESPACE_RUN);
    const name = first.toLowerCase();
    if (names.has(name)) {
      duplicates.add(name);
    } else {
      names.add(name);
      directives.push({ name, value });
    }
  }
  return { directives, duplicates: [...duplicates].sort() };
}

/** Reads a source list; expressions that match no production are reported and left out. */
function readSourceList(directive: string, value: readonly string[], errors: string[]): SourceExpression[] {
  const out: SourceExpression[] = [];
  for (const expression of value) {
    try {
      out.push(parseSourceExpression(expression));
    } catch (err) {
      if (!(err instanceof GrammarError)) throw err;
      errors.push(`${directive}: ${err.message}`);
    }
  }
  if (value.length > 1 && out.some((s) => s.kind === 'none'))
    errors.push(`${directive}: serialized-source-list: 'none' must stand alone (browsers then ignore it)`);
  return out;
}

/** Section 6.7.3.3, "Does a source list allow all inline behavior for type?" */
function allowsAllInline(list: readonly SourceExpression[], type: 'script' | 'style'): boolean {
  if (list.some((s) => s.kind === 'nonce' || s.kind === 'hash')) return false;
  if (type === 'script' && list.some((s) => s.text === "'strict-dynamic'")) return false;
  return list.some((s) => s.text === "'unsafe-inline'");
}

/** 'strict-dynamic' in a script list makes browsers ignore its host and scheme sources (section 8.2). */
const STRICT_DYNAMIC_LISTS = new Set(['script-src', 'script-src-elem']);

function enforcedSources(directive: string, list: readonly SourceExpression[]): readonly SourceExpression[] {
  if (!STRICT_DYNAMIC_LISTS.has(directive) || !list.some((s) => s.text === "'strict-dynamic'")) return list;
  return list.filter((s) => s.kind !== 'host' && s.kind !== 'scheme');
}

function effective(lists: ReadonlyMap<string, SourceExpression[]>, kind: keyof typeof FALLBACKS): CspEffective {
  const directive = FALLBACKS[kind].find((name) => lists.has(name)) ?? null;
  const list = directive === null ? null : lists.get(directive)!;
  const type = INLINE_TYPE[kind];
  return {
    directive,
    sources: list?.map((s) => s.text) ?? [],
    // With no governing directive nothing is restricted, inline content included.
    inline_allowed: type === null ? null : list === null || allowsAllInline(list, type),
  };
}

function parsePolicy(serialized: string): CspPolicy {
  const { directives, duplicates } = parseDirectives(serialized);
  const sourceErrors: string[] = [];
  const unknown: string[] = [];
  const lists = new Map<string, SourceExpression[]>();
  // No prototype: a directive may be named __proto__ or constructor, as hostile headers do.
  const values = Object.create(null) as Record<string, string[]>;
  for (const { name, value } of directives) {
    if (!DIRECTIVE_NAME.test(name))
      sourceErrors.push(`directive-name: ${JSON.stringify(name)} is not a directive name`);
    else if (!SOURCE_LIST_DIRECTIVES.has(name) && !OTHER_DIRECTIVES.has(name)) unknown.push(name);
    if (SOURCE_LIST_DIRECTIVES.has(name)) {
      const list = readSourceList(name, value, sourceErrors);
      lists.set(name, list);
      values[name] = list.map((s) => s.text);
    } else values[name] = [...value];
  }
  const plain = (name: string): string[] | null => (Object.hasOwn(values, name) ? values[name]! : null);
  const allSources = new Set([...lists.values()].flatMap((list) => list.map((s) => s.text)));
  const enforced = new Set([...lists].flatMap(([name, list]) => enforcedSources(name, list).map((s) => s.text)));
  return {
    raw: trimOf(serialized, ASCII_WHITESPACE),
    directives: values,
    duplicate_directives: duplicates,
    unknown_directives: unknown.sort(),
    syntax_errors: sourceErrors,
    sources: [...allSources].sort(),
    enforced_sources: [...enforced].sort(),
    script_elem: effective(lists, 'script_elem'),
    script_attr: effective(lists, 'script_attr'),
    script: effective(lists, 'script'),
    style_elem: effective(lists, 'style_elem'),
    style_attr: effective(lists, 'style_attr'),
    object: effective(lists, 'object'),
    frame_ancestors: plain('frame-ancestors'),
    base_uri: plain('base-uri'),
    form_action: plain('form-action'),
    report_to: plain('report-to'),
    report_uri: plain('report-uri'),
  };
}

/**
 * Section 2.2.2: a header value that may hold several policies (repeated headers arrive comma-joined). A
 * policy with no directives is dropped, as the algorithm does.
 */
export function parseCspList(header: string | null): CspPolicy[] {
  if (header === null) return [];
  return header
    .split(',')
    .map(parsePolicy)
    .filter((p) => Object.keys(p.directives).length > 0);
}
