// The HTTP Link header per RFC 8288 section 3:
//
//   Link       = #link-value
//   link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
//   link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
//
// Targets are resolved against the response URL; `rel` holds space-separated relation types, compared
// case-insensitively, and only its first occurrence counts (section 3.3). A link-value that breaks the grammar
// is skipped and reported with the production it breaks, so one bad value does not void the others.
import { Cursor, GrammarError, isToken, trimOws } from '../../src/lib/http-grammar.ts';
import { isUriReference } from '../shared/uri.ts';

export interface WebLink {
  /** The target resolved against the base URL. */
  href: string;
  /** Relation types, lower-cased, in order. */
  rel: string[];
  /** The `type` hint, lower-cased, or null. */
  type: string | null;
}

export interface LinkProblem {
  /** The RFC 8288 (or RFC 3986, RFC 9110) production the value breaks. */
  production: 'link-value' | 'link-param' | 'quoted-string' | 'URI-Reference';
  detail: string;
  /**
   * The link-value was skipped. A target outside RFC 3986 that the WHATWG URL parser still resolves (an unescaped
   * `|` in a query), and an unquoted parameter value that is not a token, are kept, as browsers use them: the
   * problem is reported, the link is not lost.
   */
  dropped: boolean;
}

export interface ParsedLinkHeader {
  links: WebLink[];
  /** Grammar problems in header order. */
  problems: LinkProblem[];
}

/** The target between the angle brackets, resolved; throws for a link-value a client cannot use. */
function target(c: Cursor, base: string, problems: LinkProblem[]): string {
  if (c.peek() !== '<') throw new GrammarError('link-value', 'a link-value starts with "<" URI-Reference ">"');
  const close = c.text.indexOf('>', c.pos);
  if (close < 0) throw new GrammarError('link-value', 'no ">" closes the target');
  const ref = c.text.slice(c.pos + 1, close);
  c.pos = close + 1;
  let href: string;
  try {
    href = new URL(ref, base).href;
  } catch {
    throw new GrammarError('URI-Reference', `${JSON.stringify(ref)} is not a URI reference`);
  }
  if (!isUriReference(ref))
    problems.push({
      production: 'URI-Reference',
      detail: `URI-Reference: ${JSON.stringify(ref)} breaks RFC 3986 section 4.1 (a browser still resolves it)`,
      dropped: false,
    });
  return href;
}

/**
 * link-param, after its ";": the name lower-cased and the unquoted value ("" when it has none). An unquoted value
 * that is not a token (`type=application/json`, `rel=https://example.com/rel`, `rel=`) is read up to the next ";"
 * or "," as browsers read it (Chromium's link_header_util checks only that the name is a token), and reported.
 */
function linkParam(c: Cursor, problems: LinkProblem[]): [string, string] {
  const name = c.token();
  if (name === null) throw new GrammarError('link-param', 'a parameter name is a token');
  c.skipOws();
  if (c.peek() !== '=') return [name.toLowerCase(), ''];
  c.pos += 1;
  c.skipOws();
  if (c.peek() === '"') return [name.toLowerCase(), c.quotedString('quoted-string')];
  const end = c.text.slice(c.pos).search(/[;,]/);
  const value = trimOws(c.text.slice(c.pos, end < 0 ? undefined : c.pos + end));
  if (value.includes('"')) throw new GrammarError('link-param', `the value of "${name}" is partly quoted`);
  c.pos = end < 0 ? c.text.length : c.pos + end;
  if (!isToken(value))
    problems.push({
      production: 'link-param',
      detail: `link-param: the value of "${name}", ${JSON.stringify(value)}, is not a token or a quoted-string (a browser reads it as written)`,
      dropped: false,
    });
  return [name.toLowerCase(), value];
}

/** One link-value at the cursor, which ends before the "," that follows it (or at the end). */
function linkValue(c: Cursor, base: string, problems: LinkProblem[]): WebLink {
  const href = target(c, base, problems);
  const params = new Map<string, string>();
  for (;;) {
    c.skipOws();
    if (c.done || c.peek() === ',') break;
    if (c.peek() !== ';')
      throw new GrammarError('link-value', `expected ";" or "," but found ${JSON.stringify(c.peek())}`);
    c.pos += 1;
    c.skipOws();
    const [name, value] = linkParam(c, problems);
    if (!params.has(name)) params.set(name, value);
  }
  const rel = (params.get('rel') ?? '')
    .toLowerCase()
    .split(/[ \t]+/)
    .filter(Boolean);
  const type = trimOws(params.get('type') ?? '').toLowerCase() || null;
  return { href, rel, type };
}

/** Moves past the next "," outside a quoted string or a target, where the next link-value may start. */
function recover(c: Cursor): void {
  let quoted = false;
  let uri = false;
  while (!c.done) {
    const ch = c.text[c.pos++];
    if (quoted) {
      if (ch === '\\') c.pos += 1;
      else if (ch === '"') quoted = false;
    } else if (uri) {
      if (ch === '>') uri = false;
    } else if (ch === '"') quoted = true;
    else if (ch === '<') uri = true;
    else if (ch === ',') return;
  }
}

export function parseLinkHeader(value: string, base: string): ParsedLinkHeader {
  const out: ParsedLinkHeader = { links: [], problems: [] };
  const c = new Cursor(value);
  while (!c.done) {
    c.skipOws();
    if (c.peek() === ',') {
      c.pos += 1; // the list grammar allows empty elements (RFC 9110 section 5.6.1)
      continue;
    }
    if (c.done) break;
    const start = c.pos;
    const kept: LinkProblem[] = [];
    try {
      out.links.push(linkValue(c, base, kept));
      out.problems.push(...kept);
      if (c.peek() === ',') c.pos += 1;
    } catch (err) {
      if (!(err instanceof GrammarError)) throw err;
      out.problems.push({
        production: err.production as LinkProblem['production'],
        detail: err.message,
        dropped: true,
      });
      c.pos = start;
      recover(c);
    }
  }
  return out;
}
