// Server cards judged against the schema version their `$schema` declares (Server Card v1 of
// modelcontextprotocol/experimental-ext-server-card): generated valid cards pass, one broken member is named.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { judgeServerCard } from '../../../plugins/agents/mcp-server-card-schema.ts';

const V1 = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

const label = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/);
const remote = fc.record(
  {
    type: fc.constantFrom('streamable-http', 'sse'),
    url: fc.oneof(
      fc.webUrl(),
      fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/).map((v) => `{${v}}/mcp`),
    ),
    supportedProtocolVersions: fc.array(fc.constantFrom('2025-06-18', '2025-11-25'), { maxLength: 2 }),
    headers: fc.array(fc.record({ name: fc.constantFrom('Authorization', 'X-Api-Key'), isSecret: fc.boolean() }), {
      maxLength: 1,
    }),
  },
  { requiredKeys: ['type', 'url'] },
);
const card = fc.record(
  {
    $schema: fc.constant(V1),
    name: fc.tuple(label, label, label).map(([a, b, n]) => `${a}.${b}/${n}`),
    version: fc.constantFrom('1.0.0', '2.1.0-alpha', '2026.01'),
    description: fc.string({ minLength: 1, maxLength: 100 }),
    title: fc.string({ minLength: 1, maxLength: 100 }),
    websiteUrl: fc.webUrl(),
    icons: fc.array(fc.record({ src: fc.webUrl(), theme: fc.constantFrom('dark', 'light') }), { maxLength: 2 }),
    repository: fc.record({ source: fc.constant('github'), url: fc.webUrl() }),
    remotes: fc.array(remote, { maxLength: 3 }),
  },
  { requiredKeys: ['$schema', 'name', 'version', 'description'] },
);

describe('judgeServerCard', () => {
  it('judges every generated v1 card valid', () => {
    fc.assert(
      fc.property(card, (c) => {
        expect(judgeServerCard(c)).toEqual({ judged_against: 'v1', schema_violations: [] });
      }),
    );
  });

  const mutations: [string, (c: Record<string, unknown>) => unknown, RegExp][] = [
    ['no name', ({ name: _, ...c }) => c, /^ServerCard \/: missing required member "name"$/],
    ['no version', ({ version: _, ...c }) => c, /^ServerCard \/: missing required member "version"$/],
    ['no description', ({ description: _, ...c }) => c, /^ServerCard \/: missing required member "description"$/],
    ['a name without a namespace', (c) => ({ ...c, name: 'catalogue' }), /^ServerCard \/name: must match pattern/],
    [
      'a description over 100 characters',
      (c) => ({ ...c, description: 'x'.repeat(101) }),
      /^ServerCard \/description: /,
    ],
    ['a version that is a number', (c) => ({ ...c, version: 1 }), /^ServerCard \/version: must be of type string$/],
    [
      'a remote without a url',
      (c) => ({ ...c, remotes: [{ type: 'sse' }] }),
      / \/remotes\/0: missing required member "url"$/,
    ],
    [
      'a remote of another transport',
      (c) => ({ ...c, remotes: [{ type: 'websocket', url: 'https://a.test/mcp' }] }),
      / \/remotes\/0\/type: must be one of/,
    ],
    [
      'a remote url that is relative',
      (c) => ({ ...c, remotes: [{ type: 'sse', url: '/mcp' }] }),
      / \/remotes\/0\/url: must match pattern/,
    ],
    [
      'an icon without src',
      (c) => ({ ...c, icons: [{ theme: 'dark' }] }),
      /^Icon \/icons\/0: missing required member "src"$/,
    ],
  ];
  for (const [name, mutate, violation] of mutations) {
    it(`names ${name}`, () => {
      fc.assert(
        fc.property(card, (c) => {
          const judged = judgeServerCard(mutate(c));
          expect(judged.judged_against).toBe('v1');
          expect(judged.schema_violations).toContainEqual(expect.stringMatching(violation));
        }),
      );
    });
  }

  it('does not judge a card that declares a schema it does not hold, or none', () => {
    const none = { judged_against: null, schema_violations: null };
    expect(judgeServerCard({ name: 'a.b/c' })).toEqual(none);
    expect(
      judgeServerCard({ $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server-card.schema.json' }),
    ).toEqual(none);
    expect(judgeServerCard('not an object')).toEqual(none);
  });
});
