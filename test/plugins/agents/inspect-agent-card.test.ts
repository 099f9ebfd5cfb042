import { describe, it, expect } from 'vitest';
import { inspectAgentCard } from '../../../plugins/agents/inspect-agent-card.ts';

const v1 = {
  name: 'Travel agent',
  description: 'Books trips',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'https://example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'book', name: 'Book', description: 'Books a flight', tags: ['travel'] }],
  securitySchemes: { oauth: { type: 'oauth2' } },
  security: [{ schemes: { oauth: { list: [] } } }],
};

describe('inspectAgentCard', () => {
  it('reads a complete 1.0 card', () => {
    expect(inspectAgentCard(v1)).toEqual({
      interface_style: 'supported-interfaces',
      name: 'Travel agent',
      description: 'Books trips',
      version: '1.0.0',
      protocol_version: '1.0',
      url: 'https://example.com/a2a',
      endpoint_urls_count: 1,
      endpoint_urls_non_https_count: 0,
      capabilities_present: true,
      skills_count: 1,
      skills_incomplete_count: 0,
      default_input_modes: ['application/json', 'text/plain'],
      default_output_modes: ['text/plain'],
      security_schemes: ['oauth'],
      security_undefined_refs: [],
      signatures_count: null,
      missing_required: [],
    });
  });

  it('reads a 0.3 card with a top-level http url and a dangling security reference', () => {
    const facts = inspectAgentCard({
      name: 'Old',
      url: 'http://example.com/a2a',
      protocolVersion: '0.3.0',
      security: [{ apiKey: [] }],
      skills: [{ id: 'x' }],
    });
    expect(facts).toMatchObject({
      interface_style: 'top-level-url',
      url: 'http://example.com/a2a',
      protocol_version: '0.3.0',
      endpoint_urls_non_https_count: 1,
      skills_incomplete_count: 1,
      security_undefined_refs: ['apiKey'],
    });
    expect(facts.missing_required).toEqual([
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'description',
      'version',
    ]);
  });

  it('lists the endpoint as missing when neither shape declares one', () => {
    expect(inspectAgentCard({ name: 'x' }).missing_required).toContain('supportedInterfaces');
  });

  it('answers empty facts for a non-object', () => {
    expect(inspectAgentCard('card')).toMatchObject({ name: null, missing_required: [], skills_count: null });
  });
});
