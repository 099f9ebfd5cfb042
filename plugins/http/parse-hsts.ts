// Strict-Transport-Security (RFC 6797 section 6.1) parsed into facts:
//
//   Strict-Transport-Security = [ directive ] *( ";" [ directive ] )      (with implied OWS between elements)
//   directive                 = directive-name [ "=" directive-value ]
//   directive-name            = token
//   directive-value           = token / quoted-string
//   max-age                   = "max-age" "=" delta-seconds              (section 6.1.1; the value may be quoted)
//   includeSubDomains         = "includeSubDomains"                      (section 6.1.2; no value)
//
// A header that breaks the grammar, repeats a directive or lacks a valid max-age is ignored whole by a UA
// (sections 6.1 and 8.1), so its max_age and flags are recorded as not in force. The header is not a list: each
// field line is one header, read apart from the network layer's field lines, and a UA processes only the first
// (section 8.1); a comma inside a line breaks the grammar, as it does for browsers.
import { Cursor, GrammarError, trimOws } from '../../src/lib/http-grammar.ts';
import type { Hsts } from './types.ts';

type HstsFacts = Omit<Hsts, 'on_first_redirect'>;

interface Directive {
  name: string;
  value: string | null;
}

/** Reads the directives of one header value, or throws a GrammarError naming the broken production. */
function readDirectives(value: string): Directive[] {
  const cur = new Cursor(value);
  const out: Directive[] = [];
  for (;;) {
    cur.skipOws();
    if (cur.done) return out;
    if (cur.peek() === ';') {
      cur.pos += 1;
      continue;
    }
    const name = cur.token();
    if (name === null) throw new GrammarError('directive-name', `expected a token at ${JSON.stringify(rest(cur))}`);
    cur.skipOws();
    let directiveValue: string | null = null;
    if (cur.peek() === '=') {
      cur.pos += 1;
      cur.skipOws();
      directiveValue = cur.tokenOrQuoted('directive-value');
      cur.skipOws();
    }
    if (!cur.done && cur.peek() !== ';')
      throw new GrammarError('directive', `expected ";" between directives at ${JSON.stringify(rest(cur))}`);
    out.push({ name: name.toLowerCase(), value: directiveValue });
  }
}

function rest(cur: Cursor): string {
  return cur.text.slice(cur.pos, cur.pos + 40);
}

/** delta-seconds = 1*DIGIT (RFC 9111 section 1.2.2); values past 2^53 are kept at the largest safe integer. */
function deltaSeconds(value: string | null): number {
  if (value === null || !/^\d+$/.test(value))
    throw new GrammarError(
      'max-age',
      `the value must be delta-seconds (1*DIGIT), found ${JSON.stringify(value ?? '')}`,
    );
  return Math.min(Number(value), Number.MAX_SAFE_INTEGER);
}

function applyDirectives(directives: readonly Directive[], out: HstsFacts): void {
  const seen = new Set<string>();
  for (const d of directives) {
    if (seen.has(d.name) && !out.duplicate_directives.includes(d.name)) out.duplicate_directives.push(d.name);
    seen.add(d.name);
  }
  out.duplicate_directives.sort();
  for (const name of out.duplicate_directives) out.parse_errors.push(`directive: ${name} appears more than once`);

  const maxAge = directives.find((d) => d.name === 'max-age');
  if (maxAge === undefined) out.parse_errors.push('max-age: the required directive is missing');
  else {
    try {
      out.max_age = deltaSeconds(maxAge.value);
    } catch (err) {
      out.parse_errors.push((err as GrammarError).message);
    }
  }
  const sub = directives.find((d) => d.name === 'includesubdomains');
  if (sub?.value != null) out.parse_errors.push('includeSubDomains: the directive takes no value');
  out.include_subdomains = sub !== undefined;
  // preload is not an RFC 6797 directive; the preload list (hstspreload.org) expects it as a bare token.
  out.preload = directives.some((d) => d.name === 'preload' && d.value === null);
}

/** obs-fold (RFC 9112 section 5.2): a recipient reads each CRLF followed by white space as SP. */
const unfold = (value: string): string => value.replace(/\r\n[ \t]+/g, ' ');

/** Parses the field lines of the header, in the order received; null or none means no header was sent. */
export function parseHsts(lines: readonly string[] | null | undefined): HstsFacts {
  const values = (lines ?? []).map((line) => trimOws(unfold(line)));
  const out: HstsFacts = {
    values,
    count: values.length,
    valid: false,
    max_age: null,
    include_subdomains: false,
    preload: false,
    duplicate_directives: [],
    parse_errors: [],
  };
  const first = values[0];
  if (first === undefined) return out;
  try {
    applyDirectives(readDirectives(first), out);
  } catch (err) {
    if (!(err instanceof GrammarError)) throw err;
    out.parse_errors.push(err.message);
  }
  out.valid = out.parse_errors.length === 0;
  if (!out.valid) {
    // The UA ignores the whole header: nothing of it is in force.
    out.max_age = null;
    out.include_subdomains = false;
    out.preload = false;
  }
  return out;
}
