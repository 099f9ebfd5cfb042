// The Content-Type of a response read as facts (RFC 9110 section 8.3). Every probe reads it here, so one header
// never becomes two different facts in two namespaces.

export interface ContentType {
  /** The type/subtype, lower-cased; null when the header is absent or empty. */
  mediaType: string | null;
  /** The charset parameter, lower-cased and unquoted; null when absent. */
  charset: string | null;
}

export function parseContentType(value: string | null | undefined): ContentType {
  if (!value) return { mediaType: null, charset: null };
  const [essence = '', ...params] = value.split(';');
  let charset: string | null = null;
  for (const param of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(param);
    if (m) charset = m[1]!.toLowerCase();
  }
  return { mediaType: essence.trim().toLowerCase() || null, charset };
}
