// Facts about OAuth discovery metadata: authorization server metadata (RFC 8414, and OpenID Connect Discovery
// which shares its members) and protected resource metadata (RFC 9728). `expected` is the identifier the
// document's location names (oauth-locations.ts); rules compare it with the one the document states.
import { asArray, asObject, asString, isHttpsUrl, stringList } from './json-value.ts';

export interface AuthorizationServerFacts {
  issuer: string | null;
  expected_issuer: string | null;
  authorization_endpoint: string | null;
  token_endpoint: string | null;
  jwks_uri: string | null;
  registration_endpoint: string | null;
  non_https_endpoints: string[];
  response_types_supported: string[] | null;
  grant_types_supported: string[] | null;
  code_challenge_methods_supported: string[] | null;
}

export function inspectAuthorizationServer(json: unknown, expected: string | null): AuthorizationServerFacts {
  const doc = asObject(json) ?? {};
  const issuer = asString(doc.issuer);
  // Every URL-valued member that a client calls or fetches keys from must be https (RFC 8414 section 2).
  const nonHttps = Object.entries(doc)
    .filter(
      ([key, value]) =>
        (key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string' && !isHttpsUrl(value),
    )
    .map(([key]) => key)
    .sort();
  return {
    issuer,
    expected_issuer: expected,
    authorization_endpoint: asString(doc.authorization_endpoint),
    token_endpoint: asString(doc.token_endpoint),
    jwks_uri: asString(doc.jwks_uri),
    registration_endpoint: asString(doc.registration_endpoint),
    non_https_endpoints: nonHttps,
    response_types_supported: stringList(doc.response_types_supported),
    grant_types_supported: stringList(doc.grant_types_supported),
    code_challenge_methods_supported: stringList(doc.code_challenge_methods_supported),
  };
}

export interface ProtectedResourceFacts {
  resource: string | null;
  expected_resource: string | null;
  authorization_servers: string[];
  authorization_servers_non_https_count: number | null;
  bearer_methods_supported: string[] | null;
  scopes_supported: string[] | null;
  jwks_uri: string | null;
}

export function inspectProtectedResource(json: unknown, expected: string | null): ProtectedResourceFacts {
  const doc = asObject(json) ?? {};
  const resource = asString(doc.resource);
  const servers = asArray(doc.authorization_servers);
  return {
    resource,
    expected_resource: expected,
    authorization_servers: servers ? servers.filter((s): s is string => typeof s === 'string') : [],
    authorization_servers_non_https_count: servers ? servers.filter((s) => !isHttpsUrl(s)).length : null,
    bearer_methods_supported: stringList(doc.bearer_methods_supported),
    scopes_supported: stringList(doc.scopes_supported),
    jwks_uri: asString(doc.jwks_uri),
  };
}
