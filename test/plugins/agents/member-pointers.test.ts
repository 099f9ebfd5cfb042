// The members a JSON document's facts are about: what its schema violations name (a missing required member: the
// document itself), the endpoints and private key members a list fact names, then the members facts are read from.
import { describe, expect, it } from 'vitest';
import { memberPointers, privateValues } from '../../../plugins/agents/member-pointers.ts';

describe('memberPointers', () => {
  it('names violations first, then listed members, then the members facts are named after or count', () => {
    const doc = { issuer: 'https://a.test', protocolVersion: '0.3.0', skills: [{}], token_endpoint: 'http://a.test/t' };
    const facts = {
      published: true,
      document: { url: 'https://a.test/x' },
      json_parsed: true,
      expected_issuer: 'https://a.test',
      form_violations: ['AgentSkill /skills/0: missing required member "tags"', 'AgentCard /: must be object'],
      missing_required: ['name'],
      non_https_endpoints: ['token_endpoint'],
      issuer: 'https://a.test',
      protocol_version: '0.3.0',
      skills_count: 1,
      description: null,
    };
    expect(memberPointers(facts, doc)).toEqual([
      ['form_violations', '/skills/0'],
      ['form_violations', ''],
      ['missing_required', ''],
      ['non_https_endpoints', '/token_endpoint'],
      ['issuer', '/issuer'],
      ['protocol_version', '/protocolVersion'],
      ['skills_count', '/skills'],
    ]);
  });

  it("points at a key's private members, and gives their values to redact", () => {
    const doc = { keys: [{ kty: 'EC' }, { kty: 'OKP', d: 'secret', 'a/b': 'other' }] };
    const facts = { keys: [{ private_members: [] }, { private_members: ['a/b', 'd'] }], private_members: ['a/b', 'd'] };
    expect(memberPointers(facts, doc)).toEqual([
      ['private_members', '/keys/1/a~1b'],
      ['private_members', '/keys/1/d'],
      ['keys', '/keys'],
    ]);
    expect(privateValues(facts, doc)).toEqual(['other', 'secret']);
    expect(memberPointers({ issuer: 'x' }, ['not', 'an', 'object'])).toEqual([]);
  });
});
