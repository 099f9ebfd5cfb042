// A2A agent cards are judged against the protocol version they declare: the specification's own sample card of
// each version passes its version's schema, generated valid cards pass, and one broken production is reported.
import { readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { cardSchemaLine, lineOfVersion } from '../../../plugins/agents/a2a-card-version.ts';
import { inspectAgentCard } from '../../../plugins/agents/inspect-agent-card.ts';

const sample = (tag: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`fixtures/a2a-spec/sample-${tag}.json`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;

const v1 = {
  name: 'Travel agent',
  description: 'Books trips',
  version: '1.0.0',
  supportedInterfaces: [{ url: 'https://example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'book', name: 'Book', description: 'Books a flight', tags: ['travel'] }],
  securitySchemes: { oauth: { oauth2SecurityScheme: { flows: {} } } },
  securityRequirements: [{ schemes: { oauth: { list: [] } } }],
};

describe('the specification samples', () => {
  it.each([
    ['v0.1.0', '0.1'],
    ['v0.2.5', '0.3'],
    ['v0.3.0', '0.3'],
    ['v1.0.0', '1.0'],
  ])('the %s sample is a valid %s card', (tag, line) => {
    const facts = inspectAgentCard(sample(tag));
    expect(facts.judged_against).toBe(line);
    expect(facts.missing_required).toEqual([]);
    expect(facts.form_violations).toEqual([]);
    expect(facts.skills_incomplete_count).toBe(0);
    expect(facts.modes_not_media_types).toEqual([]);
    expect(facts.security_undefined_refs).toEqual([]);
  });

  it('a 0.1 card judged as 1.0 would miss what 1.0 added', () => {
    const card = { ...sample('v0.1.0'), supportedInterfaces: [] };
    expect(inspectAgentCard(card).missing_required).toEqual([]);
    expect(inspectAgentCard(card).form_violations).toContain(
      'AgentCard /supportedInterfaces: must hold at least 1 item(s)',
    );
  });
});

describe('inspectAgentCard', () => {
  it('reads a complete 1.0 card', () => {
    expect(inspectAgentCard(v1)).toEqual({
      interface_style: 'supported-interfaces',
      judged_against: '1.0',
      name: 'Travel agent',
      description: 'Books trips',
      version: '1.0.0',
      protocol_version: '1.0',
      url: 'https://example.com/a2a',
      endpoint_urls_count: 1,
      endpoint_urls_non_https_count: 0,
      skills_count: 1,
      skills_incomplete_count: 0,
      default_input_modes: ['application/json', 'text/plain'],
      default_output_modes: ['text/plain'],
      modes_not_media_types: [],
      security_schemes: ['oauth'],
      security_undefined_refs: [],
      signatures_count: null,
      missing_required: [],
      form_violations: [],
      extensions: [],
    });
  });

  it('takes a url at the site root as the endpoint', () => {
    const card = { ...sample('v0.3.0'), url: 'https://example.com/', additionalInterfaces: [] };
    expect(inspectAgentCard(card)).toMatchObject({
      url: 'https://example.com/',
      endpoint_urls_non_https_count: 0,
      missing_required: [],
      form_violations: [],
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
      judged_against: '0.3',
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

  it('flags modes that are not media types, on the card and its skills', () => {
    const card = {
      ...v1,
      defaultInputModes: ['text', 'text/plain'],
      skills: [{ ...v1.skills[0], outputModes: ['image'] }],
    };
    expect(inspectAgentCard(card).modes_not_media_types).toEqual(['image', 'text']);
  });

  it('lists the endpoint as missing when a 1.0 card declares none', () => {
    expect(inspectAgentCard({ name: 'x', protocolVersion: '1.0' }).missing_required).toContain('supportedInterfaces');
  });

  it('answers empty facts for a non-object', () => {
    expect(inspectAgentCard('card')).toMatchObject({ name: null, missing_required: [], skills_count: null });
  });
});

describe('cardSchemaLine', () => {
  it('maps declared versions to their schema line', () => {
    expect(['0.1.0', '0.2.0', '0.2.4', '0.2.5', '0.2.9', '0.3.0', '1.0', '1.0.1', 'v0.3'].map(lineOfVersion)).toEqual([
      '0.1',
      '0.2',
      '0.2',
      '0.3',
      '0.3',
      '0.3',
      '1.0',
      '1.0',
      '0.3',
    ]);
    expect(lineOfVersion('latest')).toBeNull();
  });

  it('judges a card that declares no version by the members of its time', () => {
    expect(cardSchemaLine({ authentication: { schemes: [] } })).toBe('0.1');
    expect(cardSchemaLine({ url: 'https://example.com/', securitySchemes: {} })).toBe('0.2');
    expect(cardSchemaLine({ name: 'no endpoint' })).toBe('1.0');
    expect(cardSchemaLine({ supportedInterfaces: [] })).toBe('1.0');
  });
});

// Valid cards of each line, generated from the members their schema requires.
const text = fc.string({ minLength: 1, maxLength: 12 });
const mediaType = fc.constantFrom('text/plain', 'application/json', 'image/png', 'text/markdown; charset=utf-8');
const skill = fc.record({ id: text, name: text, description: text, tags: fc.array(text, { maxLength: 3 }) });
const base = fc.record({
  name: text,
  description: text,
  version: text,
  capabilities: fc.record({ streaming: fc.boolean() }, { requiredKeys: [] }),
  defaultInputModes: fc.array(mediaType, { minLength: 1, maxLength: 3 }),
  defaultOutputModes: fc.array(mediaType, { minLength: 1, maxLength: 3 }),
  skills: fc.array(skill, { maxLength: 3 }),
});
const url = fc.webUrl({ validSchemes: ['https'] });
const cards = fc.oneof(
  fc.tuple(base, url).map(([b, u]) => ({ line: '0.2', card: { ...b, url: u } })),
  fc.tuple(base, url, fc.constantFrom('0.2.5', '0.2.6', '0.3.0')).map(([b, u, v]) => ({
    line: '0.3',
    card: { ...b, url: u, protocolVersion: v },
  })),
  fc.tuple(base, url, fc.constantFrom('JSONRPC', 'GRPC', 'HTTP+JSON')).map(([b, u, binding]) => ({
    line: '1.0',
    card: { ...b, supportedInterfaces: [{ url: u, protocolBinding: binding, protocolVersion: '1.0' }] },
  })),
);

describe('generated cards', () => {
  test.prop([cards])('every valid card of a line is valid for that line', ({ line, card }) => {
    const facts = inspectAgentCard(card);
    expect(facts.judged_against).toBe(line);
    expect([...facts.missing_required, ...facts.form_violations]).toEqual([]);
    expect(facts.skills_incomplete_count).toBe(0);
  });

  const required: Record<string, string[]> = {
    '0.2': [
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'description',
      'name',
      'skills',
      'url',
      'version',
    ],
    '0.3': [
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'description',
      'name',
      'skills',
      'url',
      'version',
    ],
    '1.0': [
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'description',
      'name',
      'skills',
      'supportedInterfaces',
      'version',
    ],
  };

  test.prop([cards, fc.nat()])('removing one required member is reported by name', ({ line, card }, n) => {
    const members = required[line]!;
    const member = members[n % members.length]!;
    const broken: Record<string, unknown> = { ...card };
    delete broken[member];
    // An undeclared card without its url no longer looks like a 0.2 card: it is held to 1.0's endpoint member.
    const reported = line === '0.2' && member === 'url' ? 'supportedInterfaces' : member;
    expect(inspectAgentCard(broken).missing_required).toEqual([reported]);
  });

  test.prop([cards, fc.nat()])('a member of the wrong type is reported with its production', ({ card }, n) => {
    const members = ['name', 'description', 'version', 'capabilities', 'defaultInputModes'];
    const member = members[n % members.length]!;
    const facts = inspectAgentCard({ ...card, [member]: 42 });
    expect(facts.form_violations).toContainEqual(
      expect.stringMatching(new RegExp(`^Agent\\w+ /${member}: must be of type`)),
    );
  });

  test.prop([cards])('a skill without tags is an incomplete skill', ({ card }) => {
    const skills = [{ id: 'a', name: 'b', description: 'c' }];
    expect(inspectAgentCard({ ...card, skills }).skills_incomplete_count).toBe(1);
  });
});

const AP2 = 'https://github.com/google-agentic-commerce/ap2/tree/v0.1';
const AP2_ROLES = ['merchant', 'shopper', 'credentials-provider', 'payment-processor'] as const;

describe('declared extensions (the AP2 A2A extension)', () => {
  it("reads the AP2 specification's example card verbatim (https://github.com/google-agentic-commerce/AP2/blob/v0.1.0/docs/a2a-extension.md)", () => {
    const card = {
      name: 'Travel Agent',
      description: 'This agent can book all necessary parts of a vacation',
      capabilities: {
        extensions: [
          {
            uri: 'https://github.com/google-agentic-commerce/ap2/tree/v0.1',
            description: "This agent can pay for reservations on the user's behalf",
            params: {
              roles: ['shopper'],
            },
          },
        ],
      },
      skills: [
        {
          id: 'plan_vacation',
          name: 'Plan Vacation',
          description: 'Plan a fun vacation, creating a full itinerary',
          tags: [],
        },
        {
          id: 'book_itinerary',
          name: 'Book Itinerary',
          description:
            'Place reservations for all components of an itinerary (flights, hotels, rentals, restaurants, etc.)',
          tags: [],
        },
      ],
    };
    expect(inspectAgentCard(card).extensions).toEqual([{ uri: AP2, required: null, roles: ['shopper'] }]);
  });

  test.prop([
    fc.array(
      fc.record({
        uri: fc.oneof(fc.constant(AP2), fc.webUrl()),
        required: fc.boolean(),
        roles: fc.array(fc.constantFrom(...AP2_ROLES), { minLength: 1, maxLength: 4 }),
      }),
      { maxLength: 5 },
    ),
  ])('generated declarations are read as written, in order', (declared) => {
    const card = {
      ...v1,
      capabilities: {
        extensions: declared.map((d) => ({ uri: d.uri, required: d.required, params: { roles: d.roles } })),
      },
    };
    expect(inspectAgentCard(card).extensions).toEqual(declared);
  });

  it('one production broken: roles that are not a list of strings, an entry without a uri, no capabilities', () => {
    const extensions = [
      { uri: AP2, params: { roles: 'merchant' } },
      { uri: AP2, required: 'yes', params: { roles: ['merchant', 7] } },
      { description: 'no uri', params: { roles: ['merchant'] } },
      { uri: AP2 },
    ];
    expect(inspectAgentCard({ ...v1, capabilities: { extensions } }).extensions).toEqual([
      { uri: AP2, required: null, roles: null },
      { uri: AP2, required: null, roles: null },
      { uri: AP2, required: null, roles: null },
    ]);
    expect(inspectAgentCard({ ...v1, capabilities: undefined }).extensions).toEqual([]);
  });
});
