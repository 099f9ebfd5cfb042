// The oauth facet: protected resource and authorization server metadata at the root, the servers the resource
// names, and the key sets their jwks_uri members name.
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import { described, json, JWKS_ACCEPT } from './discovery-document.ts';
import { inspectJwks } from './inspect-jwks.ts';
import { inspectAuthorizationServer, inspectProtectedResource } from './inspect-oauth.ts';
import { isHttpsUrl } from './json-value.ts';
import { identifierOf, metadataUrl } from './oauth-locations.ts';

/** Authorization servers followed from protected resource metadata, and key sets followed from jwks_uri. */
const MAX_NAMED_SERVERS = 3;
const MAX_KEY_SETS = 4;

/** Metadata of an authorization server the protected resource names, at both locations its issuer implies. */
async function namedServer(f: DocumentFetcher, issuer: string) {
  const at = async (kind: 'oauth-authorization-server' | 'openid-configuration') => {
    const location = metadataUrl(issuer, kind)!;
    const doc = await json(f, location);
    return described(doc, inspectAuthorizationServer(doc.json, identifierOf(location, kind)));
  };
  const [oauthServer, openidConfiguration] = await Promise.all([
    at('oauth-authorization-server'),
    at('openid-configuration'),
  ]);
  return { named_as: issuer, oauth_authorization_server: oauthServer, openid_configuration: openidConfiguration };
}

/** Each key set a metadata document names in jwks_uri, fetched once, with the documents that name it. */
async function keySets(f: DocumentFetcher, named: { name: string; jwks_uri: string | null }[], observedAt: string) {
  const byUrl = new Map<string, string[]>();
  for (const { name, jwks_uri } of named) {
    if (jwks_uri === null || !isHttpsUrl(jwks_uri)) continue;
    byUrl.set(jwks_uri, [...(byUrl.get(jwks_uri) ?? []), name]);
  }
  const entries = [...byUrl].slice(0, MAX_KEY_SETS);
  return Promise.all(
    entries.map(async ([url, namedBy]) => {
      const doc = await json(f, url, JWKS_ACCEPT);
      return {
        url,
        named_by: [...new Set(namedBy)].sort(),
        ...described(doc, await inspectJwks(doc.json, observedAt)),
      };
    }),
  );
}

/** An identifier with metadata locations that is not the scanned origin (whose root locations are read anyway). */
function followable(issuer: string, origin: string): boolean {
  const at = metadataUrl(issuer, 'oauth-authorization-server');
  return at !== null && identifierOf(at, 'oauth-authorization-server') !== origin;
}

export async function collectOauth(f: DocumentFetcher, observedAt: string) {
  // Identifiers name the site by its public origin, whatever port the probe reaches it on.
  const origin = `https://${f.domain}`;
  // The servers the protected resource names are followed as soon as it arrives, beside the root documents.
  const resourceAndNamed = async () => {
    const resource = await json(f, '/.well-known/oauth-protected-resource');
    const protectedResource = described(resource, inspectProtectedResource(resource.json, origin));
    const issuers = protectedResource.authorization_servers
      .filter((i) => followable(i, origin))
      .slice(0, MAX_NAMED_SERVERS);
    return { protectedResource, namedServers: await Promise.all(issuers.map((issuer) => namedServer(f, issuer))) };
  };
  const [{ protectedResource, namedServers }, server, openid] = await Promise.all([
    resourceAndNamed(),
    json(f, '/.well-known/oauth-authorization-server'),
    json(f, '/.well-known/openid-configuration'),
  ]);
  const authorizationServer = described(server, inspectAuthorizationServer(server.json, origin));
  const openidConfiguration = described(openid, inspectAuthorizationServer(openid.json, origin));
  const named = [
    { name: 'protected_resource', jwks_uri: protectedResource.jwks_uri },
    { name: 'authorization_server', jwks_uri: authorizationServer.jwks_uri },
    { name: 'openid_configuration', jwks_uri: openidConfiguration.jwks_uri },
    ...namedServers.flatMap((s) => [
      { name: `named_servers:${s.named_as}`, jwks_uri: s.oauth_authorization_server.jwks_uri },
      { name: `named_servers:${s.named_as}`, jwks_uri: s.openid_configuration.jwks_uri },
    ]),
  ];
  return {
    protected_resource: protectedResource,
    authorization_server: authorizationServer,
    openid_configuration: openidConfiguration,
    named_servers: namedServers,
    key_sets: await keySets(f, named, observedAt),
  };
}
