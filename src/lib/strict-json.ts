// Strict JSON (RFC 8259) for documents a verifier relies on: a certificate, a JWS header, a key set, a tree
// head. RFC 8259 section 4 leaves duplicate member names to the parser, and JSON.parse keeps the last one,
// so a document can show a reader one value and hand the program another. Here a duplicate is an error.
import { parse, traverse, evaluate, type Location, type ObjectNode } from '@humanwhocodes/momoa';

export class StrictJsonError extends Error {
  override name = 'StrictJsonError';
  constructor(
    /** `syntax`: not JSON at all; `duplicate`: JSON that names a member twice. */
    readonly kind: 'syntax' | 'duplicate',
    message: string,
  ) {
    super(message);
  }
}

const where = (loc: Location) => `line ${loc.line}, column ${loc.column}`;

/** Parses JSON text, refusing any object that names a member twice (names compared after unescaping). */
export function parseStrictJson(text: string): unknown {
  let document;
  try {
    document = parse(text, { mode: 'json', ranges: false, tokens: false });
  } catch (err) {
    throw new StrictJsonError('syntax', `not JSON: ${(err as Error).message}`);
  }
  traverse(document, {
    enter(node) {
      if (node.type !== 'Object') return;
      const seen = new Set<string>();
      for (const member of (node as ObjectNode).members) {
        const name = member.name.type === 'String' ? member.name.value : member.name.name;
        if (seen.has(name))
          throw new StrictJsonError(
            'duplicate',
            `duplicate member name ${JSON.stringify(name)} at ${where(member.loc.start)}`,
          );
        seen.add(name);
      }
    },
  });
  return evaluate(document.body);
}
