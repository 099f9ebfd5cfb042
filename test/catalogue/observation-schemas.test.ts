// The observation schemas share the fetcher's document facts through one `$ref` to wellknown.json; the registry
// makes each namespace self-contained again, so ajv, the path resolver and the docs read it as one document.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ObservationSchemas, withSharedDefs } from '../../src/catalogue/observation-schemas.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';
import type { Schema } from '../../src/engine/schema-paths.ts';
import wellknown from '../../schemas/observations/wellknown.json' with { type: 'json' };
import good from '../golden/good.test.observations.json' with { type: 'json' };

const defsOf = (schema: object | undefined) => (schema as { $defs: Record<string, unknown> }).$defs;

describe('observation schemas with shared definitions', () => {
  const schemas = ObservationSchemas.fromDirectory(path.join(REPO_ROOT, 'schemas', 'observations'));

  it("give the agents namespace the wellknown probe's document and published, with local refs", () => {
    const agents = schemas.namespaces.get('agents');
    expect(defsOf(agents).document).toEqual(wellknown.$defs.document);
    expect(defsOf(agents).published).toEqual(wellknown.$defs.published);
    expect(JSON.stringify(agents)).not.toMatch(/"\$ref":"[^#]/);
    expect(schemas.resolve('agents.mcp.manifest.document.soft_404').length).toBeGreaterThan(0);
  });

  it('validate a shared fact in the namespace that borrows it', () => {
    const manifest = { published: true, document: { url: 1 } };
    expect(schemas.validate('agents', { mcp: { manifest } }, 'partial')).toMatch(/document\/url must be string/);
  });

  it('copy a definition that refers to another of its file, and refuse a ref to nothing or a clash', () => {
    const a: Schema = { $defs: { pair: { type: 'array', items: { $ref: '#/$defs/one' } }, one: { const: 1 } } };
    const b: Schema = { properties: { x: { $ref: 'a.json#/$defs/pair' } } };
    expect(
      withSharedDefs(
        new Map([
          ['a', a],
          ['b', b],
        ]),
      ).get('b'),
    ).toEqual({
      properties: { x: { $ref: '#/$defs/pair' } },
      $defs: { pair: { type: 'array', items: { $ref: '#/$defs/one' } }, one: { const: 1 } },
    });
    expect(() => withSharedDefs(new Map([['b', b]]))).toThrow(/names no \$defs entry/);
    const clash: Schema = { ...b, $defs: { pair: {} } };
    expect(() =>
      withSharedDefs(
        new Map([
          ['a', a],
          ['b', clash],
        ]),
      ),
    ).toThrow(/defined twice/);
  });
});

describe('evidence recorded before ruleset 1.14.0', () => {
  const schemas = ObservationSchemas.fromDirectory(path.join(REPO_ROOT, 'schemas', 'observations'));
  type KeySet = { keys: { kid: string | null; kty: string | null; kid_is_thumbprint: boolean | null }[] };
  /** The counts the agents probe wrote beside every key set until 1.14.0, whose rules count `keys` themselves. */
  const withCounts = (set: KeySet) => ({
    ...set,
    keys_count: set.keys.length,
    keys_without_kty_count: set.keys.filter((k) => k.kty === null).length,
    keys_without_kid_count: set.keys.filter((k) => k.kid === null).length,
    kid_thumbprint_mismatch_count: set.keys.filter((k) => k.kid_is_thumbprint === false).length,
  });

  it('still validates with the counts it carried', () => {
    const agents = structuredClone(good.agents);
    expect(schemas.validate('agents', agents, 'complete')).toBeNull();
    const { identity, oauth } = agents;
    const before = {
      ...agents,
      identity: { ...identity, jwks: withCounts(identity.jwks), wba_directory: withCounts(identity.wba_directory) },
      oauth: {
        ...oauth,
        key_sets: oauth.key_sets.map(withCounts),
        protected_resource: {
          ...oauth.protected_resource,
          authorization_servers_count: oauth.protected_resource.authorization_servers.length,
        },
      },
    };
    expect(schemas.validate('agents', before, 'complete')).toBeNull();
    const misspelt = { ...before, identity: { ...identity, jwks: { ...identity.jwks, keys_counted: 1 } } };
    expect(schemas.validate('agents', misspelt, 'complete')).toMatch(/keys_counted/);
  });
});
