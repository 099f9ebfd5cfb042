import { describe, it, expect } from 'vitest';
import { inspectAiPlugin, inspectSkillsIndex, inspectUcpProfile } from '../../../plugins/agents/inspect-manifests.ts';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('inspectSkillsIndex', () => {
  it('counts skills that break the v0.2 entry rules', () => {
    expect(
      inspectSkillsIndex({
        $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
        skills: [
          {
            name: 'book-trip',
            type: 'skill-md',
            description: 'Books a trip',
            url: '/skills/book-trip/SKILL.md',
            digest: DIGEST,
          },
          { name: 'Book_Trip', type: 'skill-md', description: 'Bad name', url: '/x', digest: DIGEST },
          { name: 'zip', type: 'archive', description: 'No digest', url: '/zip' },
        ],
      }),
    ).toEqual({
      schema_url: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
      skills_count: 3,
      skills_incomplete_count: 2,
    });
  });
});

describe('inspectAiPlugin', () => {
  it('reads the members plugin readers use', () => {
    expect(
      inspectAiPlugin({
        schema_version: 'v1',
        name_for_model: 'shop',
        description_for_model: 'Find products',
        api: { type: 'openapi', url: 'https://example.com/openapi.json' },
      }),
    ).toEqual({
      schema_version: 'v1',
      name_for_model: 'shop',
      description_for_model: 'Find products',
      api_url: 'https://example.com/openapi.json',
    });
  });
});

describe('inspectUcpProfile', () => {
  it('counts services, capabilities and http endpoints', () => {
    expect(
      inspectUcpProfile({
        ucp: {
          version: '2026-01-23',
          services: {
            'dev.ucp.shopping': {
              rest: { endpoint: 'https://example.com/ucp' },
              mcp: { endpoint: 'http://example.com/mcp' },
            },
          },
          capabilities: [{ name: 'dev.ucp.shopping.checkout', version: '2026-01-23' }],
        },
      }),
    ).toEqual({ version: '2026-01-23', services_count: 1, capabilities_count: 1, non_https_endpoints_count: 1 });
  });

  it('answers nulls for a document without ucp', () => {
    expect(inspectUcpProfile({})).toEqual({
      version: null,
      services_count: null,
      capabilities_count: null,
      non_https_endpoints_count: 0,
    });
  });
});
