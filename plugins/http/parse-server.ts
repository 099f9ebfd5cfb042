// Server (RFC 9110 section 10.2.4) read as its grammar defines it:
//
//   Server          = product *( RWS ( product / comment ) )
//   product         = token [ "/" product-version ]                 (section 10.1.5)
//   product-version = token
//   comment         = "(" *( ctext / quoted-pair / comment ) ")"    (section 5.6.5)
//   ctext           = HTAB / SP / %x21-27 / %x2A-5B / %x5D-7E / obs-text
//
// A version is the product-version after "/"; digits in a product name ("S3") or a comment ("(Ubuntu 22.04)")
// are not one.
import { Cursor, GrammarError } from '../../src/lib/http-grammar.ts';
import type { ServerHeader } from './types.ts';
import { SPACE_OR_TAB, trimOf } from '../../src/lib/trim.ts';

function isCtext(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return (
    c === 0x09 ||
    c === 0x20 ||
    (c >= 0x21 && c <= 0x27) ||
    (c >= 0x2a && c <= 0x5b) ||
    (c >= 0x5d && c <= 0x7e) ||
    c >= 0x80
  );
}

/** Reads a (nested) comment; the cursor is on "(". Returns the text between the outer parentheses. */
function comment(cur: Cursor): string {
  const start = cur.pos;
  let depth = 0;
  for (;;) {
    const ch = cur.peek();
    if (ch === undefined) throw new GrammarError('comment', 'no closing ")"');
    cur.pos += 1;
    if (ch === '(') depth += 1;
    else if (ch === ')') {
      depth -= 1;
      if (depth === 0) return cur.text.slice(start + 1, cur.pos - 1);
    } else if (ch === '\\') {
      if (cur.peek() === undefined) throw new GrammarError('quoted-pair', 'a "\\" ends the comment');
      cur.pos += 1;
    } else if (!isCtext(ch))
      throw new GrammarError('ctext', `character ${JSON.stringify(ch)} not allowed in a comment`);
  }
}

function product(cur: Cursor, out: ServerHeader): void {
  const name = cur.token();
  if (name === null)
    throw new GrammarError('product', `expected a token at ${JSON.stringify(cur.text.slice(cur.pos))}`);
  let version: string | null = null;
  if (cur.peek() === '/') {
    cur.pos += 1;
    version = cur.token();
    if (version === null) throw new GrammarError('product-version', `"${name}/" has no version token`);
  }
  out.products.push({ name, version });
}

/** Parses a Server value; what was read before a grammar error is kept, and the error names the production. */
export function parseServer(value: string | null): ServerHeader {
  const out: ServerHeader = { raw: value, products: [], comments: [], parse_error: null };
  if (value === null) return out;
  const cur = new Cursor(trimOf(value, SPACE_OR_TAB));
  try {
    product(cur, out);
    while (!cur.done) {
      const before = cur.pos;
      cur.skipOws();
      if (cur.pos === before)
        throw new GrammarError('RWS', `expected whitespace at ${JSON.stringify(cur.text.slice(cur.pos))}`);
      if (cur.peek() === '(') out.comments.push(comment(cur));
      else product(cur, out);
    }
  } catch (err) {
    if (!(err instanceof GrammarError)) throw err;
    out.parse_error = err.message;
  }
  return out;
}
