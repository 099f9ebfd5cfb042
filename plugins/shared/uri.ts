// The URI grammar of RFC 3986 section 3 (Appendix A), which DMARC, TLS-RPT, BIMI and CAA iodef values import.
// Pure. The WHATWG URL parser is not used: it repairs what RFC 3986 refuses (spaces, backslashes, bare "%").
import { isIPv4, isIPv6 } from 'node:net';

const UNRESERVED = 'A-Za-z0-9\\-._~';
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
/** IP-literal: an IPv6 address or IPvFuture in brackets; the IPv6 text is checked separately. */
const IP_LITERAL = `\\[(?<literal>[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+)\\]`;
const AUTHORITY = `(?:${USERINFO}@)?(?<host>${IP_LITERAL}|${REG_NAME})(?::\\d*)?`;
const HIER_PART =
  `(?://${AUTHORITY}(?:/${SEGMENT})*` + // "//" authority path-abempty
  `|/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?` + // path-absolute
  `|${SEGMENT_NZ}(?:/${SEGMENT})*` + // path-rootless
  `|)`; // path-empty
const URI = new RegExp(`^(?<scheme>[A-Za-z][A-Za-z0-9+.-]*):${HIER_PART}(?:\\?${QUERY})?(?:#${QUERY})?$`);
/** relative-ref (section 4.2): a path-noscheme's first segment holds no ":" so it cannot be read as a scheme. */
const SEGMENT_NZ_NC = `(?:[${UNRESERVED}${SUB_DELIMS}@]|${PCT})+`;
const RELATIVE_PART =
  `(?://${AUTHORITY}(?:/${SEGMENT})*` + // "//" authority path-abempty
  `|/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?` + // path-absolute
  `|${SEGMENT_NZ_NC}(?:/${SEGMENT})*` + // path-noscheme
  `|)`; // path-empty
const RELATIVE_REF = new RegExp(`^${RELATIVE_PART}(?:\\?${QUERY})?(?:#${QUERY})?$`);

export interface ParsedUri {
  /** Lower-cased (schemes are case-insensitive, section 3.1). */
  scheme: string;
}

/** The URI's scheme when the text is a URI per RFC 3986 section 3, else null. */
export function parseUri(text: string): ParsedUri | null {
  const m = URI.exec(text);
  if (!m?.groups) return null;
  const literal = m.groups.literal;
  if (literal !== undefined && !literal.startsWith('v') && (!isIPv6(literal) || literal.includes('%'))) return null;
  return { scheme: m.groups.scheme!.toLowerCase() };
}

/** URI-reference (section 4.1): a URI or a relative reference. */
export function isUriReference(text: string): boolean {
  if (parseUri(text) !== null) return true;
  const m = RELATIVE_REF.exec(text);
  if (!m?.groups) return false;
  const literal = m.groups.literal;
  return literal === undefined || literal.startsWith('v') || (isIPv6(literal) && !literal.includes('%'));
}

/** The host of an http(s) URI's authority, lower-cased; null when it has none or is an IP literal. */
export function uriHost(text: string): string | null {
  const m = URI.exec(text);
  const host = m?.groups?.host;
  if (!host || m.groups!.literal !== undefined || isIPv4(host)) return null;
  return host.toLowerCase();
}
