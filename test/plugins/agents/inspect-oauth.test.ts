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
      authorization_servers_count: 2,
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
      authorization_servers_count: null,
    });
  });
});
