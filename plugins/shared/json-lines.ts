// A JSON document parsed once with the place of every value (momoa keeps locations in the same pass), so that a
// finding about a member can quote the lines the site sent (issue 36): the probes keep no bodies, and JSON.parse
// forgets where a member was. The value is the one JSON.parse gives: a repeated member name keeps its last value.
import { evaluate, parse, type ValueNode } from '@humanwhocodes/momoa';
import { lineExcerpt, type ExcerptLine, type LinePointer } from './line-excerpt.ts';

/** A parsed document: its value, the tree its lines are found in, and its lines as momoa numbers them. */
export interface JsonLines {
  value: unknown;
  /** Null for a document read without places (larger than LOCATED_CHARS, or nested too deeply for momoa). */
  tree: ValueNode | null;
  lines: string[];
}

/** What did not parse: the parser's message and the line it stopped on (null when it gave none). */
export class JsonLinesError extends Error {
  override name = 'JsonLinesError';
  constructor(
    message: string,
    readonly line: number | null,
    readonly lines: string[],
  ) {
    super(message);
  }
}

/**
 * Characters of text parsed with places. Keeping them costs about 25 times JSON.parse's CPU (37 us against 1.4 us
 * for a 400-byte card; 150-200 ms against 7 ms for a 1.1 MB OpenAPI description, under load): discovery documents
 * are a few KB, and a larger one, such as an OpenAPI description of up to 2 MB, is read without its places.
 */
export const LOCATED_CHARS = 64 * 1024;

/** The lines as momoa counts them: CR, LF and CRLF each end one. */
const splitLines = (text: string) => text.split(/\r\n?|\n/);

/** The value alone, for text read without places. */
function valueOnly(text: string): JsonLines {
  try {
    return { value: JSON.parse(text) as unknown, tree: null, lines: [] };
  } catch (err) {
    throw new JsonLinesError((err as Error).message, null, []);
  }
}

/** Parses JSON text (RFC 8259) keeping locations; throws JsonLinesError for text that is not JSON. */
export function parseJsonLines(text: string): JsonLines {
  if (text.length > LOCATED_CHARS) return valueOnly(text);
  let tree: ValueNode;
  try {
    tree = parse(text, { mode: 'json', ranges: false, tokens: false }).body;
  } catch (err) {
    // The parser recurses per level: a document nested thousands deep is read without its places.
    if (err instanceof RangeError) return valueOnly(text);
    const line = (err as { line?: unknown }).line;
    throw new JsonLinesError((err as Error).message, typeof line === 'number' ? line : null, splitLines(text));
  }
  return { value: evaluate(tree), tree, lines: splitLines(text) };
}

/** RFC 6901 reference tokens of a pointer ("" is the whole document). */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The lines of what a JSON pointer names: the line of the member's name, and of its value when that starts on
 * another line and is not a container (a container is shown by its opening line). A member that is absent names
 * the opening line of the deepest object or array the pointer reaches: where a required member is missing.
 */
export function pointerLines(tree: ValueNode, pointer: string): number[] {
  let node = tree;
  let lines = [tree.loc.start.line];
  for (const token of tokens(pointer)) {
    if (node.type === 'Object') {
      // The last of repeated names, as the value read has it.
      const member = node.members.findLast((m) => (m.name.type === 'String' ? m.name.value : m.name.name) === token);
      if (!member) break;
      node = member.value;
      lines = [member.loc.start.line];
    } else if (node.type === 'Array' && /^(0|[1-9]\d*)$/.test(token)) {
      const element = node.elements[Number(token)];
      if (!element) break;
      node = element.value;
      lines = [element.loc.start.line];
    } else break;
    if (node.type !== 'Object' && node.type !== 'Array' && node.loc.start.line !== lines[0])
      lines.push(node.loc.start.line);
  }
  return lines;
}

/** A fact of a document and a JSON pointer into it that the fact is about. */
export type MemberPointer = readonly [fact: string, pointer: string];

/** The excerpt of text that is not JSON: the line the parser stopped on, for `facts` (none when it gave no line). */
export function errorExcerpt(err: JsonLinesError, facts: readonly string[]): ExcerptLine[] {
  const { line } = err;
  return line === null
    ? []
    : lineExcerpt(
        err.lines,
        facts.map((fact): LinePointer => [fact, line]),
      );
}

/** What a quoted secret reads as instead. */
export const REDACTED = '[redacted]';

/**
 * The excerpt (line-excerpt.ts's bounds) of the members `pointers` name, in their order. `secrets` are values the
 * site should not have published (a private key's members): the lines quote the member, not the secret again.
 */
export function jsonExcerpt(
  doc: JsonLines,
  pointers: Iterable<MemberPointer>,
  secrets: readonly string[] = [],
): ExcerptLine[] {
  const tree = doc.tree;
  if (!tree) return [];
  function* lines(): Generator<LinePointer> {
    for (const [fact, pointer] of pointers) for (const line of pointerLines(tree!, pointer)) yield [fact, line];
  }
  const shown = secrets.filter((s) => s !== '');
  const text = shown.length ? doc.lines.map((l) => shown.reduce((t, s) => t.replaceAll(s, REDACTED), l)) : doc.lines;
  return lineExcerpt(text, lines());
}
