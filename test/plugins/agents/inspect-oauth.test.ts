import { fc, test } from '@fast-check/vitest';
import { describe, it, expect } from 'vitest';
import { inspectAuthorizationServer, inspectProtectedResource } from '../../../plugins/agents/inspect-oauth.ts';

const ORIGIN = 'https://example.com';

describe('inspectAuthorizationServer', () => {
  it('reads conforming metadata', () => {
    expect(
      inspectAuthorizationServer(
        {
          issuer: 'https://example.com',
          authorization_endpoint: 'https://example.com/authorize',
          token_endpoint: 'https://example.com/token',
          registration_endpoint: 'https://example.com/register',
          jwks_uri: 'https://example.com/.well-known/jwks.json',
          response_types_supported: ['code'],
          grant_types_supported: ['refresh_token', 'authorization_code'],
          code_challenge_methods_supported: ['S256'],
        },
        ORIGIN,
      ),
    ).toEqual({
      issuer: 'https://example.com',
      expected_issuer: 'https://example.com',
      authorization_endpoint: 'https://example.com/authorize',
      token_endpoint: 'https://example.com/token',
      jwks_uri: 'https://example.com/.well-known/jwks.json',
      registration_endpoint: 'https://example.com/register',
      non_https_endpoints: [],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('names http endpoints and a foreign issuer', () => {
    const facts = inspectAuthorizationServer(
      {
        issuer: 'https://login.other.test',
        token_endpoint: 'http://example.com/token',
        jwks_uri: 'http://example.com/jwks',
        authorization_endpoint: 'https://example.com/a',
      },
      ORIGIN,
    );
    expect(facts).toMatchObject({ issuer: 'https://login.other.test', expected_issuer: ORIGIN });
    expect(facts.non_https_endpoints).toEqual(['jwks_uri', 'token_endpoint']);
    expect(facts.code_challenge_methods_supported).toBeNull();
  });

  it('answers null without an issuer', () => {
    expect(inspectAuthorizationServer({}, ORIGIN).issuer).toBeNull();
  });
});

describe('inspectProtectedResource', () => {
  it('reads RFC 9728 metadata', () => {
    expect(
      inspectProtectedResource(
        {
          resource: 'https://example.com',
          authorization_servers: ['https://auth.example.com', 'http://legacy.example.com'],
          bearer_methods_supported: ['header'],
          scopes_supported: ['write', 'read'],
        },
        ORIGIN,
      ),
    ).toEqual({
      resource: 'https://example.com',
      expected_resource: ORIGIN,
      authorization_servers: ['https://auth.example.com', 'http://legacy.example.com'],
      authorization_servers_non_https_count: 1,
      bearer_methods_supported: ['header'],
      scopes_supported: ['read', 'write'],
      jwks_uri: null,
    });
  });

  it('notices a resource for another origin', () => {
    expect(inspectProtectedResource({ resource: 'https://api.example.com' }, ORIGIN)).toMatchObject({
      resource: 'https://api.example.com',
      expected_resource: ORIGIN,
      authorization_servers: [],
      authorization_servers_non_https_count: null,
    });
  });
});

// RFC 8414 section 3.2, the example response, verbatim (userinfo_endpoint included: OpenID Connect Discovery
// shares the document). service_documentation is an http URL, but it is a page for people, not an endpoint a
// client calls, so section 2's https requirement does not reach it.
const RFC_8414_EXAMPLE = `{
 "issuer":
   "https://server.example.com",
 "authorization_endpoint":
   "https://server.example.com/authorize",
 "token_endpoint":
   "https://server.example.com/token",
 "token_endpoint_auth_methods_supported":
   ["client_secret_basic", "private_key_jwt"],
 "token_endpoint_auth_signing_alg_values_supported":
   ["RS256", "ES256"],
 "userinfo_endpoint":
   "https://server.example.com/userinfo",
 "jwks_uri":
   "https://server.example.com/jwks.json",
 "registration_endpoint":
   "https://server.example.com/register",
 "scopes_supported":
   ["openid", "profile", "email", "address",
    "phone", "offline_access"],
 "response_types_supported":
   ["code", "code token"],
 "service_documentation":
   "http://server.example.com/service_documentation.html",
 "ui_locales_supported":
   ["en-US", "en-GB", "en-CA", "fr-FR", "fr-CA"]
}`;

describe('authorization server metadata: the RFC 8414 section 3.2 example', () => {
  it('reads its issuer, endpoints and lists, and finds no http endpoint', () => {
    expect(inspectAuthorizationServer(JSON.parse(RFC_8414_EXAMPLE), 'https://server.example.com')).toEqual({
      issuer: 'https://server.example.com',
      expected_issuer: 'https://server.example.com',
      authorization_endpoint: 'https://server.example.com/authorize',
      token_endpoint: 'https://server.example.com/token',
      jwks_uri: 'https://server.example.com/jwks.json',
      registration_endpoint: 'https://server.example.com/register',
      non_https_endpoints: [],
      response_types_supported: ['code', 'code token'],
      grant_types_supported: null,
      code_challenge_methods_supported: null,
    });
  });
});

// Metadata generated from RFC 8414 section 2: an https issuer, https endpoints (every *_endpoint member and
// jwks_uri; extension endpoints such as userinfo_endpoint or pushed_authorization_request_endpoint included) and
// the supported-value lists; members outside the registry kept by clients and ignored here.
// Labels without hyphens: a generated `xn--` label would be an invalid IDN, which no URL parser accepts.
const host = fc.stringMatching(/^[a-z][a-z0-9]{0,10}\.(?:test|example)$/);
const path = fc.array(fc.stringMatching(/^[a-z0-9_-]{1,8}$/), { maxLength: 3 }).map((p) => p.join('/'));
const https = fc.tuple(host, path).map(([h, p]) => `https://${h}/${p}`);
const ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
  'userinfo_endpoint',
  'revocation_endpoint',
  'introspection_endpoint',
  'pushed_authorization_request_endpoint',
  'jwks_uri',
] as const;
const list = (values: string[]) => fc.uniqueArray(fc.constantFrom(...values), { minLength: 1 });
const metadata = fc.record(
  {
    issuer: https,
    ...Object.fromEntries(ENDPOINTS.map((name) => [name, https])),
    response_types_supported: list(['code', 'token', 'id_token', 'code id_token', 'none']),
    grant_types_supported: list(['authorization_code', 'refresh_token', 'client_credentials', 'implicit']),
    code_challenge_methods_supported: list(['S256', 'plain']),
    service_documentation: fc.constantFrom('http://docs.example/', 'https://docs.example/'),
  },
  { requiredKeys: ['issuer', 'response_types_supported'] },
) as fc.Arbitrary<Record<string, string | string[]>>;

describe('authorization server metadata: documents generated from RFC 8414 section 2', () => {
  test.prop([metadata])('read with every value as written and no http endpoint', (doc) => {
    const facts = inspectAuthorizationServer(doc, doc.issuer as string);
    expect(facts).toMatchObject({
      issuer: doc.issuer,
      authorization_endpoint: doc.authorization_endpoint ?? null,
      token_endpoint: doc.token_endpoint ?? null,
      jwks_uri: doc.jwks_uri ?? null,
      registration_endpoint: doc.registration_endpoint ?? null,
      non_https_endpoints: [],
      response_types_supported: [...(doc.response_types_supported as string[])].sort(),
      grant_types_supported: doc.grant_types_supported ? [...(doc.grant_types_supported as string[])].sort() : null,
    });
  });

  // One mutation each: an endpoint that is not an https URL is named, and only it.
  test.prop([metadata, fc.constantFrom(...ENDPOINTS), fc.constantFrom('http://', 'ftp://', '//', '')])(
    'an endpoint that breaks the https URL requirement is named',
    (doc, name, scheme) => {
      const broken = { ...doc, [name]: `${scheme}as.example/${name}` };
      expect(inspectAuthorizationServer(broken, null).non_https_endpoints).toEqual([name]);
    },
  );

  test.prop([metadata, fc.constantFrom(null, 42, ['https://as.example'], '')])(
    'an issuer that is not a string is no issuer',
    (doc, issuer) => {
      const facts = inspectAuthorizationServer({ ...doc, issuer }, null);
      expect(facts.issuer).toBe(issuer === '' ? '' : null);
    },
  );
});

// RFC 9728 section 3.2, the example response, verbatim.
const RFC_9728_EXAMPLE = `{
 "resource":
   "https://resource.example.com",
 "authorization_servers":
   ["https://as1.example.com",
    "https://as2.example.net"],
 "bearer_methods_supported":
   ["header", "body"],
 "scopes_supported":
   ["profile", "email", "phone"],
 "resource_documentation":
   "https://resource.example.com/resource_documentation.html"
}`;

describe('protected resource metadata: the RFC 9728 section 3.2 example', () => {
  it('reads its resource, servers and lists', () => {
    expect(inspectProtectedResource(JSON.parse(RFC_9728_EXAMPLE), 'https://resource.example.com')).toEqual({
      resource: 'https://resource.example.com',
      expected_resource: 'https://resource.example.com',
      authorization_servers: ['https://as1.example.com', 'https://as2.example.net'],
      authorization_servers_non_https_count: 0,
      bearer_methods_supported: ['body', 'header'],
      scopes_supported: ['email', 'phone', 'profile'],
      jwks_uri: null,
    });
  });
});

// Metadata generated from RFC 9728 section 2: an https resource, https authorization server issuers, the
// bearer methods of RFC 6750 and scopes.
const resourceMetadata = fc.record(
  {
    resource: https,
    authorization_servers: fc.uniqueArray(https, { minLength: 1, maxLength: 4 }),
    bearer_methods_supported: fc.uniqueArray(fc.constantFrom('header', 'body', 'query')),
    scopes_supported: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z:._-]{0,10}$/), { maxLength: 5 }),
    jwks_uri: https,
  },
  { requiredKeys: ['resource', 'authorization_servers'] },
);

describe('protected resource metadata: documents generated from RFC 9728 section 2', () => {
  test.prop([resourceMetadata])('read with every value as written', (doc) => {
    expect(inspectProtectedResource(doc, doc.resource)).toEqual({
      resource: doc.resource,
      expected_resource: doc.resource,
      authorization_servers: doc.authorization_servers,
      authorization_servers_non_https_count: 0,
      bearer_methods_supported: doc.bearer_methods_supported ? [...doc.bearer_methods_supported].sort() : null,
      scopes_supported: doc.scopes_supported ? [...doc.scopes_supported].sort() : null,
      jwks_uri: doc.jwks_uri ?? null,
    });
  });

  test.prop([resourceMetadata, fc.nat(), fc.constantFrom('http://', 'ftp://', '')])(
    'an authorization server that is not an https URL is counted',
    (doc, n, scheme) => {
      const servers = [...doc.authorization_servers];
      servers[n % servers.length] = `${scheme}as.example/${n}`;
      const facts = inspectProtectedResource({ ...doc, authorization_servers: servers }, null);
      expect(facts.authorization_servers_non_https_count).toBe(1);
      expect(facts.authorization_servers).toEqual(servers);
    },
  );

  test.prop([resourceMetadata, fc.constantFrom(null, 'https://as.example', {})])(
    'authorization_servers that is not an array lists none and has no count',
    (doc, servers) => {
      const facts = inspectProtectedResource({ ...doc, authorization_servers: servers }, null);
      expect(facts).toMatchObject({ authorization_servers: [], authorization_servers_non_https_count: null });
    },
  );
});
