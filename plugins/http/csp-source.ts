// CSP Level 3 source expressions (section 2.3.1), each read against its production:
//
//   serialized-source-list = ( source-expression *( required-ascii-whitespace source-expression ) ) / "'none'"
//   source-expression      = scheme-source / host-source / keyword-source / nonce-source / hash-source
//   scheme-source          = scheme-part ":"
//   host-source            = [ scheme-part "://" ] host-part [ ":" port-part ] [ path-part ]
//   scheme-part            = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )          (RFC 3986 scheme)
//   host-part              = "*" / [ "*." ] 1*host-char *( "." 1*host-char ) [ "." ]
//   host-char              = ALPHA / DIGIT / "-"
//   port-part              = 1*DIGIT / "*"
//   path-part              = path-absolute (but not including ";" or ",")          (RFC 3986)
//   keyword-source         = "'self'" / "'unsafe-inline'" / "'unsafe-eval'" / "'strict-dynamic'" / ...
//   nonce-source           = "'nonce-" base64-value "'"
//   hash-source            = "'" hash-algorithm "-" base64-value "'"
//   hash-algorithm         = "sha256" / "sha384" / "sha512"
//   base64-value           = 1*( ALPHA / DIGIT / "+" / "/" / "-" / "_" )*2( "=" )
//
// ABNF literals are case-insensitive, so keywords, schemes and hosts are lower-cased; a nonce or hash value and a
// path keep their case.
import { GrammarError } from '../../src/lib/http-grammar.ts';

type SourceKind = 'none' | 'keyword' | 'nonce' | 'hash' | 'scheme' | 'host';

export interface SourceExpression {
  kind: SourceKind;
  /** The expression normalised: lower-cased except a nonce or hash value and a path. */
  text: string;
}

/** Keyword sources of CSP Level 3 and its current editor's draft. */
const KEYWORDS = new Set([
  "'self'",
  "'unsafe-inline'",
  "'unsafe-eval'",
  "'strict-dynamic'",
  "'unsafe-hashes'",
  "'report-sample'",
  "'unsafe-allow-redirects'",
  "'wasm-unsafe-eval'",
  "'trusted-types-eval'",
  "'report-sha256'",
  "'report-sha384'",
  "'report-sha512'",
  "'inline-speculation-rules'",
  "'unsafe-webtransport-hashes'",
]);

const BASE64_VALUE = '[A-Za-z0-9+/_-]+={0,2}';
const NONCE = new RegExp(`^'nonce-(${BASE64_VALUE})'$`, 'i');
const HASH = new RegExp(`^'(sha256|sha384|sha512)-(${BASE64_VALUE})'$`, 'i');
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const HOST_PART = /^(?:\*|(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?)$/;
const PORT_PART = /^(?:\d+|\*)$/;
// path-absolute: "/" [ segment-nz *( "/" segment ) ], pchar without ";" and ",".
const PCHAR = "(?:[A-Za-z0-9._~!$&'()*+=:@-]|%[0-9A-Fa-f]{2})";
const PATH_PART = new RegExp(`^/(?:${PCHAR}+(?:/${PCHAR}*)*)?$`);

function quoted(expression: string): SourceExpression {
  const lower = expression.toLowerCase();
  if (lower === "'none'") return { kind: 'none', text: lower };
  if (KEYWORDS.has(lower)) return { kind: 'keyword', text: lower };
  if (lower.startsWith("'nonce-")) {
    const m = NONCE.exec(expression);
    if (m === null) throw new GrammarError('nonce-source', `${expression} has no valid base64-value`);
    return { kind: 'nonce', text: `'nonce-${m[1]}'` };
  }
  const hash = /^'(sha\d+)-/i.exec(expression);
  if (hash !== null) {
    const m = HASH.exec(expression);
    if (m === null)
      throw new GrammarError('hash-source', `${expression} needs sha256, sha384 or sha512 and a base64-value`);
    return { kind: 'hash', text: `'${m[1]!.toLowerCase()}-${m[2]}'` };
  }
  throw new GrammarError('keyword-source', `${expression} is not a CSP keyword`);
}

function hostSource(expression: string): SourceExpression {
  let rest = expression;
  let scheme = '';
  const sep = rest.indexOf('://');
  if (sep !== -1) {
    scheme = rest.slice(0, sep);
    if (!SCHEME.test(scheme)) throw new GrammarError('scheme-part', `${JSON.stringify(scheme)} is not a scheme`);
    rest = rest.slice(sep + 3);
  }
  const slash = rest.indexOf('/');
  const path = slash === -1 ? '' : rest.slice(slash);
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const colon = authority.lastIndexOf(':');
  const host = colon === -1 ? authority : authority.slice(0, colon);
  const port = colon === -1 ? null : authority.slice(colon + 1);
  if (!HOST_PART.test(host)) throw new GrammarError('host-part', `${JSON.stringify(host)} is not a host`);
  if (port !== null && !PORT_PART.test(port))
    throw new GrammarError('port-part', `${JSON.stringify(port)} is not a port`);
  if (path !== '' && !PATH_PART.test(path))
    throw new GrammarError('path-part', `${JSON.stringify(path)} is not a path`);
  const head = `${scheme === '' ? '' : `${scheme.toLowerCase()}://`}${host.toLowerCase()}`;
  return { kind: 'host', text: `${head}${port === null ? '' : `:${port}`}${path}` };
}

/** Reads one source expression, or throws a GrammarError naming the production it breaks. */
export function parseSourceExpression(expression: string): SourceExpression {
  if (expression.startsWith("'")) return quoted(expression);
  if (expression.endsWith(':') && SCHEME.test(expression.slice(0, -1)))
    return { kind: 'scheme', text: expression.toLowerCase() };
  return hostSource(expression);
}
