// The Content-Type of a response read as facts (RFC 9110 section 8.3). Every probe reads it here, so one header
// never becomes two different facts in two namespaces.
//
//   media-type = type "/" subtype parameters
//   type       = token
//   subtype    = token
//   parameters = *( OWS ";" OWS [ parameter ] )
//   parameter  = parameter-name "=" parameter-value
//   parameter-value = ( token / quoted-string )
//
// A value whose type/subtype breaks the grammar declares no media type (browsers then treat the response as
// having none). A malformed parameter is skipped, and when charset repeats the first counts, as the WHATWG
// MIME type parser does.
import { Cursor, GrammarError } from '../lib/http-grammar.ts';
import { SPACE_OR_TAB, trimOf } from '../lib/trim.ts';

export interface ContentType {
  /** The type/subtype, lower-cased; null when the header is absent, empty or not a media-type. */
  mediaType: string | null;
  /** The charset parameter, lower-cased and unquoted; null when absent. */
  charset: string | null;
}

function parameterValue(cur: Cursor): string | null {
  try {
    return cur.tokenOrQuoted('parameter-value');
  } catch (err) {
    if (err instanceof GrammarError) return null;
    throw err;
  }
}

/** Reads the parameters after the subtype; returns the first well-formed charset. */
function charsetOf(cur: Cursor): string | null {
  let charset: string | null = null;
  while (!cur.done) {
    cur.skipOws();
    if (cur.peek() !== ';') return charset; // text after the media type that is not a parameter
    cur.pos += 1;
    cur.skipOws();
    const name = cur.token();
    if (name === null || cur.peek() !== '=') {
      // Skip to the next ";" (a quoted string may hold one).
      while (!cur.done && cur.peek() !== ';') cur.pos += 1;
      continue;
    }
    cur.pos += 1;
    const value = parameterValue(cur);
    if (value !== null && name.toLowerCase() === 'charset' && charset === null) charset = value.toLowerCase();
  }
  return charset;
}

export function parseContentType(value: string | null | undefined): ContentType {
  if (!value) return { mediaType: null, charset: null };
  const cur = new Cursor(trimOf(value, SPACE_OR_TAB));
  const type = cur.token();
  if (type === null || cur.peek() !== '/') return { mediaType: null, charset: null };
  cur.pos += 1;
  const subtype = cur.token();
  if (subtype === null) return { mediaType: null, charset: null };
  cur.skipOws();
  if (!cur.done && cur.peek() !== ';') return { mediaType: null, charset: null };
  return { mediaType: `${type}/${subtype}`.toLowerCase(), charset: charsetOf(cur) };
}
