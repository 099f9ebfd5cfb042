// Strict-Transport-Security (RFC 6797 section 6.1) parsed into facts. A comma can only appear when the header
// was sent more than once (the field grammar has none), so the value is split on commas first; a browser
// honours the first value only (section 8.1).
import type { Hsts } from './types.ts';

const DIRECTIVE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^\s";]*))?$/;

function unquote(value: string): string {
  return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

/** Parses the (possibly comma-joined) header value; null means no header was sent. */
export function parseHsts(header: string | null): Omit<Hsts, 'on_first_redirect'> {
  const values =
    header === null
      ? []
      : header
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== '');
  const result: Omit<Hsts, 'on_first_redirect'> = {
    values,
    count: values.length,
    max_age: null,
    include_subdomains: false,
    preload: false,
    duplicate_directives: [],
    parse_errors: [],
  };
  const first = values[0];
  if (first === undefined) return result;

  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const part of first.split(';')) {
    const text = part.trim();
    if (text === '') continue;
    const m = DIRECTIVE.exec(text);
    if (!m) {
      result.parse_errors.push(`unparsable directive: ${text}`);
      continue;
    }
    const name = m[1]!.toLowerCase();
    if (seen.has(name)) duplicates.add(name);
    seen.add(name);
    const value = m[2] === undefined ? null : unquote(m[2]);
    if (name === 'max-age') {
      if (value === null || !/^\d+$/.test(value)) result.parse_errors.push(`max-age is not a number: ${value ?? ''}`);
      else if (result.max_age === null) result.max_age = Number(value);
    } else if (name === 'includesubdomains') {
      result.include_subdomains = true;
    } else if (name === 'preload') {
      result.preload = true;
    }
  }
  if (!seen.has('max-age')) result.parse_errors.push('max-age is missing');
  result.duplicate_directives = [...duplicates].sort();
  for (const name of result.duplicate_directives) result.parse_errors.push(`directive repeated: ${name}`);
  return result;
}
