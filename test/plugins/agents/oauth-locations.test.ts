// Metadata locations of issuers with and without a path (RFC 8414 section 3.1, OpenID Connect Discovery
// section 4, RFC 9728 section 3.1), and their inverse.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { identifierOf, metadataUrl, type MetadataKind } from '../../../plugins/agents/oauth-locations.ts';

describe('the specifications examples', () => {
  it('RFC 8414 section 3.1: the well-known segment goes between host and path', () => {
    expect(metadataUrl('https://example.com/issuer1', 'oauth-authorization-server')).toBe(
      'https://example.com/.well-known/oauth-authorization-server/issuer1',
    );
    expect(metadataUrl('https://example.com', 'oauth-authorization-server')).toBe(
      'https://example.com/.well-known/oauth-authorization-server',
    );
  });

  it('OpenID Connect Discovery section 4.1: the well-known segment is appended, without a terminating slash', () => {
    expect(metadataUrl('https://example.com/issuer1', 'openid-configuration')).toBe(
      'https://example.com/issuer1/.well-known/openid-configuration',
    );
    expect(metadataUrl('https://example.com/', 'openid-configuration')).toBe(
      'https://example.com/.well-known/openid-configuration',
    );
  });

  it('RFC 9728 section 3.1: protected resources follow RFC 8414', () => {
    expect(metadataUrl('https://resource.example.com/resource1', 'oauth-protected-resource')).toBe(
      'https://resource.example.com/.well-known/oauth-protected-resource/resource1',
    );
  });

  it('refuses identifiers that are not https URLs without query or fragment', () => {
    for (const bad of [
      'http://example.com',
      'https://example.com/?tenant=1',
      'https://example.com/#x',
      'example.com',
    ]) {
      expect(metadataUrl(bad, 'openid-configuration')).toBeNull();
    }
    expect(identifierOf('https://example.com/.well-known/other', 'oauth-authorization-server')).toBeNull();
    expect(identifierOf('https://example.com/openid-configuration', 'openid-configuration')).toBeNull();
  });
});

const segment = fc.stringMatching(/^[a-z0-9][a-z0-9._~-]{0,10}$/);
const issuer = fc
  .tuple(fc.domain(), fc.array(segment, { maxLength: 3 }))
  .map(([host, path]) => `https://${host}${path.map((p) => `/${p}`).join('')}`);
const kind = fc.constantFrom<MetadataKind>(
  'oauth-authorization-server',
  'openid-configuration',
  'oauth-protected-resource',
);

describe('generated issuers', () => {
  test.prop([issuer, kind])('the location names the issuer it was formed from', (id, k) => {
    expect(identifierOf(metadataUrl(id, k)!, k)).toBe(new URL(id).href.replace(/\/$/, ''));
  });

  test.prop([issuer, kind])('a terminating slash does not move the location', (id, k) => {
    expect(metadataUrl(`${id}/`, k)).toBe(metadataUrl(id, k));
  });
});
