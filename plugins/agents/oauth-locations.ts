// Where OAuth and OpenID metadata live for an issuer, and which issuer a metadata location names. An issuer
// with a path keeps its metadata under that path, and the two specifications place the well-known segment
// differently:
//   RFC 8414 section 3.1: insert "/.well-known/oauth-authorization-server" between the host and the path
//   OpenID Connect Discovery 1.0 section 4: append "/.well-known/openid-configuration" to the issuer
// In both, a terminating "/" of the issuer's path is removed first. RFC 9728 section 3.1 places protected
// resource metadata the way RFC 8414 does.

export type MetadataKind = 'oauth-authorization-server' | 'openid-configuration' | 'oauth-protected-resource';

/** An issuer or resource identifier: an https URL without query or fragment (RFC 8414 section 2, RFC 9728 section 1.2). */
export function parseIdentifier(value: string): URL | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  return url.protocol === 'https:' && url.search === '' && url.hash === '' ? url : null;
}

function trimmedPath(url: URL): string {
  return url.pathname.replace(/\/$/, '');
}

/** The metadata URL of an identifier; null when the identifier is not an https URL without query or fragment. */
export function metadataUrl(identifier: string, kind: MetadataKind): string | null {
  const url = parseIdentifier(identifier);
  if (!url) return null;
  const path = trimmedPath(url);
  if (kind === 'openid-configuration') return `${url.origin}${path}/.well-known/openid-configuration`;
  return `${url.origin}/.well-known/${kind}${path}`;
}

/** The identifier a metadata URL names (the inverse of metadataUrl, without a terminating slash); null if none. */
export function identifierOf(location: string, kind: MetadataKind): string | null {
  const url = parseIdentifier(location);
  if (!url) return null;
  if (kind === 'openid-configuration') {
    const suffix = '/.well-known/openid-configuration';
    return url.pathname.endsWith(suffix) ? url.origin + url.pathname.slice(0, -suffix.length) : null;
  }
  const prefix = `/.well-known/${kind}`;
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return null;
  return url.origin + url.pathname.slice(prefix.length).replace(/\/$/, '');
}
