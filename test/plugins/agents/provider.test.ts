// The agents probe against the fixture internet: the good site's documents and each ag-* site's defect.
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld, type SharedWorld } from '../../suite/world.ts';
import { createNet } from '../../../src/net/index.ts';
import { loadConfig } from '../../../src/lib/config.ts';
import { provider } from '../../../plugins/agents/index.ts';
import wellknownSchema from '../../../schemas/observations/wellknown.json' with { type: 'json' };
import type { ProbeContext } from '../../../src/engine/types.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { AgentsObservations } from '../../../src/lib/schema-types/observations/agents.ts';
import { allFacets, anyString, facets, stringMatching } from '../../helpers/typed-json.ts';

// The schema takes the fetcher's document facts from wellknown.json, found by its $id.
const validate = new Ajv2020({ allErrors: true, strict: true }).addSchema(wellknownSchema).compile(provider.schema);

const OBSERVED_AT = '2026-06-01T00:00:00.000Z';
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined };

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});

/** Collects the given facets (every facet when none are named) for a domain. */
async function observe(domain: string, names?: string[]): Promise<unknown> {
  const ctx: ProbeContext = {
    net: createNet(loadConfig(world.env)),
    signal: AbortSignal.timeout(20_000),
    observedAt: OBSERVED_AT,
    log: silent,
    needs: (path) =>
      names === undefined || names.some((f) => path === `agents.${f}` || path.startsWith(`agents.${f}.`)),
  };
  return provider.collect(domain, ctx);
}

const collect = async <F extends keyof AgentsObservations>(domain: string, names: F[]) =>
  facets('agents', await observe(domain, names), names);

describe('agents provider on good.test', () => {
  let obs: Required<AgentsObservations>;
  beforeAll(async () => {
    obs = allFacets('agents', await observe('good.test'));
  });

  it('reads the server card and talks to the endpoint it names', () => {
    expect(obs.mcp.manifest).toMatchObject({ format: 'server-card', name: 'test.good/catalogue', version: '1.0.0' });
    expect(obs.mcp.manifest).toMatchObject({
      published: true,
      document: { status: 200, content_type: 'application/json', access_control_allow_origin: '*' },
      json_parsed: true,
    });
    expect(obs.mcp.manifest.remotes).toEqual([
      { url: 'https://good.test/mcp', transport: 'streamable-http', declared_in: 'remotes', on_site: true },
    ]);
    expect(obs.mcp.server_card).toMatchObject({ published: false, document: { status: 404 } });
    expect(obs.mcp.endpoint).toMatchObject({
      url: 'https://good.test/mcp',
      status: 200,
      content_type: 'text/event-stream',
      framing: 'sse',
      result_valid: true,
      server_name: 'good-test-catalogue',
      protocol_version: LATEST_PROTOCOL_VERSION,
      capabilities: ['tools'],
      tools_list_status: 200,
      tools_count: 1,
    });
  });

  it('reads the A2A card, OpenAPI description and API catalog', () => {
    expect(obs.a2a.card).toMatchObject({
      interface_style: 'supported-interfaces',
      skills_count: 1,
      skills_incomplete_count: 0,
      missing_required: [],
      endpoint_urls_non_https_count: 0,
    });
    // Signed for good.test with the key its own key set lists (kid: the key's thumbprint).
    expect(obs.a2a.card.signatures).toEqual([
      {
        alg: 'EdDSA',
        kid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
        jku: 'https://good.test/.well-known/jwks.json',
        verified: true,
        reason: null,
      },
    ]);
    expect(obs.a2a.legacy_card.document.status).toBe(404);
    expect(obs.a2a.legacy_card.signatures).toBeNull();
    expect(obs.openapi).toMatchObject({
      family: 'openapi',
      spec_version: '3.1.0',
      operations_count: 2,
      operation_ids_count: 2,
      servers_non_https_count: 0,
    });
    expect(obs.api_catalog.document.content_type).toBe('application/linkset+json');
    expect(obs.api_catalog).toMatchObject({
      profile: 'https://www.rfc-editor.org/info/rfc9727',
      linkset_present: true,
      service_desc_count: 1,
      contexts_without_resolvable_anchor_count: 0,
      contexts_without_absolute_anchor_count: 0,
    });
  });

  it('reads OAuth resource metadata and the key sets', () => {
    expect(obs.oauth.protected_resource).toMatchObject({
      resource: 'https://good.test',
      expected_resource: 'https://good.test',
      authorization_servers: ['https://good.test/auth'],
      authorization_servers_non_https_count: 0,
    });
    expect(obs.oauth.authorization_server.document.status).toBe(404);
    // The issuer has a path: RFC 8414 places its metadata at /.well-known/oauth-authorization-server/auth (not
    // published here), OpenID Discovery at /auth/.well-known/openid-configuration (published).
    expect(obs.oauth.named_servers).toHaveLength(1);
    expect(obs.oauth.named_servers[0]).toMatchObject({
      named_as: 'https://good.test/auth',
      oauth_authorization_server: {
        published: false,
        document: { url: stringMatching(/\/\.well-known\/oauth-authorization-server\/auth$/), status: 404 },
      },
      openid_configuration: {
        published: true,
        issuer: 'https://good.test/auth',
        expected_issuer: 'https://good.test/auth',
        jwks_uri: 'https://good.test/auth/keys.json',
      },
    });
    // The keys are where jwks_uri says, not at /.well-known/jwks.json.
    expect(obs.oauth.key_sets).toEqual([
      expect.objectContaining({
        url: 'https://good.test/auth/keys.json',
        named_by: ['named_servers:https://good.test/auth'],
        published: true,
        keys: [expect.objectContaining({ kty: 'EC' })],
        private_members: [],
        form_violations: [],
        encoding_violations: [],
      }),
    ]);
    expect(obs.identity.jwks).toMatchObject({
      keys: [expect.objectContaining({ kid_is_thumbprint: true })],
      private_members: [],
    });
    expect(obs.identity.wba_directory.document.content_type).toBe('application/http-message-signatures-directory+json');
    expect(obs.identity.wba_directory).toMatchObject({
      keys_valid_at_observation_count: 1,
      keys: [expect.objectContaining({ kid_is_thumbprint: true })],
      cache_control: 'max-age=86400',
      // Signed at request time with the key it lists (the RFC 8032 test key), covering the authority asked for.
      signature_verified_keyids: ['kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k'],
    });
    expect(obs.a2a.card.extensions).toEqual([
      { uri: 'https://github.com/google-agentic-commerce/ap2/tree/v0.1', required: true, roles: ['merchant'] },
    ]);
  });

  it('records absent manifests as misses and no payment challenge', () => {
    expect(obs.manifests.ai_plugin).toMatchObject({ published: false, document: { status: 404 }, json_parsed: false });
    expect(obs.commerce.payment_challenges).toEqual([]);
  });

  it('emits every facet, valid against the observation schema', () => {
    expect(Object.keys(obs).sort()).toEqual([
      'a2a',
      'api_catalog',
      'commerce',
      'identity',
      'manifests',
      'mcp',
      'oauth',
      'openapi',
    ]);
    expect(validate(obs), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe('agents provider on the broken sites', () => {
  it('ag-mcp-broken: mcp.json does not parse and no endpoint is contacted', async () => {
    const obs = await collect('ag-mcp-broken.test', ['mcp']);
    expect(Object.keys(obs)).toEqual(['mcp']);
    expect(obs.mcp.manifest).toMatchObject({
      published: true,
      document: { status: 200, body_is_html: false },
      json_parsed: false,
      json_error: anyString(),
    });
    expect(obs.mcp.endpoint).toBeNull();
    expect(validate(obs), JSON.stringify(validate.errors)).toBe(true);
  });

  it('ag-card-incomplete: the card lacks skills, modes and an endpoint', async () => {
    const obs = await collect('ag-card-incomplete.test', ['a2a']);
    expect(obs.a2a.card.missing_required).toEqual([
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
      'supportedInterfaces',
    ]);
  });

  it('ag-wba-signature-foreign: the directory is signed, but by no key it lists', async () => {
    const obs = await collect('ag-wba-signature-foreign.test', ['identity']);
    expect(obs.identity.wba_directory.signature).toEqual(anyString());
    expect(obs.identity.wba_directory.signature_verified_keyids).toEqual([]);
  });

  it.each([
    ['ag-a2a-signature-wrong-key', 'https://{}/.well-known/jwks.json', 'signature_invalid'],
    ['ag-a2a-signature-altered', 'https://{}/.well-known/jwks.json', 'signature_invalid'],
    ['ag-a2a-signature-foreign-jku', 'https://good.test/.well-known/jwks.json', 'jku_not_on_site'],
    ['ag-a2a-signature-jku-missing', 'https://{}/.well-known/a2a-keys.json', 'key_set_unavailable'],
  ])('%s: the card is signed, and the signature does not verify', async (site, jku, reason) => {
    const domain = `${site}.test`;
    const obs = await collect(domain, ['a2a']);
    expect(obs.a2a.card.signatures_count).toBe(1);
    expect(obs.a2a.card.signatures).toEqual([
      {
        alg: 'EdDSA',
        kid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
        jku: jku.replace('{}', domain),
        verified: false,
        reason,
      },
    ]);
  });

  it('ag-ap2-broken: the AP2 declaration as written', async () => {
    const obs = await collect('ag-ap2-broken.test', ['a2a']);
    expect(obs.a2a.card.extensions).toEqual([
      { uri: 'https://github.com/google-agentic-commerce/ap2/v1', required: false, roles: ['merchant', 'payee'] },
    ]);
  });

  it('ag-jwks-private: the key set leaks d', async () => {
    const obs = await collect('ag-jwks-private.test', ['identity']);
    expect(obs.identity.jwks.private_members).toEqual(['d']);
  });

  it('ag-oauth-http: http endpoints and no PKCE', async () => {
    const obs = await collect('ag-oauth-http.test', ['oauth']);
    expect(obs.oauth.authorization_server).toMatchObject({
      expected_issuer: 'https://ag-oauth-http.test',
      non_https_endpoints: ['registration_endpoint', 'token_endpoint'],
      code_challenge_methods_supported: null,
    });
  });

  it('a name that does not resolve gives error facts, not a throw', async () => {
    const obs = await collect('nxdomain.test', ['a2a']);
    expect(obs.a2a.card).toMatchObject({ published: false, document: { status: null }, json_parsed: false });
    expect(obs.a2a.card.document.error).toEqual(anyString());
  });
});
