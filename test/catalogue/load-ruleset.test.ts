import { describe, expect, it } from 'vitest';
import { RulesetError } from '../../src/catalogue/load-ruleset.ts';
import { loadFixture, ruleYaml } from '../engine/helpers.ts';

const RULE_PATH = 'tls/protocol/tls13_supported.yaml';

function problemsOf(files: Record<string, string>, version?: string): string[] {
  try {
    loadFixture(files, version);
  } catch (err) {
    expect(err).toBeInstanceOf(RulesetError);
    return (err as RulesetError).problems.map((p) => `${p.file}: ${p.message}`);
  }
  return [];
}

describe('loadRuleset', () => {
  it('loads a valid rule, ordered by id, with digests', () => {
    const rs = loadFixture({
      [RULE_PATH]: ruleYaml(),
      'tls/protocol/tls12_supported.yaml': ruleYaml({
        id: 'tls.protocol.tls12_supported',
        check: { '==': [{ var: 'tls.versions.tls1_2' }, true] },
        examples: [
          { name: 'yes', observations: { tls: { versions: { tls1_2: true } } }, expect: 'pass' },
          { name: 'no', observations: { tls: { versions: { tls1_2: false } } }, expect: 'fail' },
        ],
      }),
    });
    expect(rs.version).toBe('1.0.0');
    expect(rs.rules.map((r) => r.id)).toEqual(['tls.protocol.tls12_supported', 'tls.protocol.tls13_supported']);
    expect(rs.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(rs.rules[1]!.file).toMatch(/tls13_supported\.yaml$/);
  });

  it('refuses a schema violation, naming the file and the field', () => {
    const [p] = problemsOf({ [RULE_PATH]: ruleYaml({ level: 'mandatory' }) });
    expect(p).toMatch(/tls13_supported\.yaml: does not match schemas\/rule\.schema\.json: \/level/);
  });

  it('refuses unknown fields', () => {
    expect(problemsOf({ [RULE_PATH]: ruleYaml({ severity: 'high' }) }).join()).toMatch(/severity/);
  });

  it('refuses an id that does not match its path', () => {
    expect(problemsOf({ 'tls/other.yaml': ruleYaml() }).join()).toMatch(
      /does not match its path \(expected "tls\.other"\)/,
    );
  });

  it('refuses duplicate ids', () => {
    const dup = problemsOf({ [RULE_PATH]: ruleYaml(), 'tls/copy.yaml': ruleYaml() });
    expect(dup.join()).toMatch(/duplicate id "tls\.protocol\.tls13_supported" \(also in [^)]*\.yaml\)/);
  });

  it('refuses a var that no observation schema defines', () => {
    const ps = problemsOf({ [RULE_PATH]: ruleYaml({ check: { '==': [{ var: 'tls.versions.tls1_4' }, true] } }) });
    expect(ps.join()).toMatch(/reads "tls\.versions\.tls1_4", which no observation schema defines/);
  });

  it('refuses a requires path that no schema defines', () => {
    expect(problemsOf({ [RULE_PATH]: ruleYaml({ requires: ['tls.ciphers'] }) }).join()).toMatch(
      /requires "tls\.ciphers"/,
    );
  });

  it("refuses a var outside the rule's requires", () => {
    const ps = problemsOf({ [RULE_PATH]: ruleYaml({ check: { '==': [{ var: 'tls.certificate.not_after' }, null] } }) });
    expect(ps.join()).toMatch(/reads "tls\.certificate\.not_after", which is not under its requires/);
  });

  it('refuses an unknown operation', () => {
    expect(problemsOf({ [RULE_PATH]: ruleYaml({ check: { fetch: ['https://x'] } }) }).join()).toMatch(
      /unknown operation "fetch"/,
    );
  });

  it('refuses a rule without both a passing and a failing example', () => {
    const ps = problemsOf({
      [RULE_PATH]: ruleYaml({
        examples: [
          { name: 'a', observations: { tls: { versions: { tls1_3: true } } }, expect: 'pass' },
          { name: 'b', observations: { tls: { versions: { tls1_3: true } } }, expect: 'pass' },
        ],
      }),
    });
    expect(ps.join()).toMatch(/needs at least one passing and one failing example/);
  });

  it('refuses example observations that invent a field or use a wrong type', () => {
    const ps = problemsOf({
      [RULE_PATH]: ruleYaml({
        examples: [
          { name: 'invented', observations: { tls: { versions: { tls1_3: true, tls2_0: true } } }, expect: 'pass' },
          { name: 'typed', observations: { tls: { versions: { tls1_3: 'yes' } } }, expect: 'fail' },
        ],
      }),
    });
    expect(ps.join()).toMatch(/example "invented".*tls2_0/);
    expect(ps.join()).toMatch(/example "typed".*must be boolean,null/);
  });

  it('checks vars inside list operations against the item schema', () => {
    const good = ruleYaml({
      requires: ['tls.certificate.sans'],
      check: { some: [{ var: 'tls.certificate.sans' }, { '==': [{ var: 'wildcard' }, true] }] },
      examples: [
        {
          name: 'w',
          observations: { tls: { certificate: { sans: [{ name: '*.a', wildcard: true }] } } },
          expect: 'pass',
        },
        { name: 'n', observations: { tls: { certificate: { sans: [] } } }, expect: 'fail' },
      ],
    });
    expect(problemsOf({ [RULE_PATH]: good })).toEqual([]);
    const bad = good.replace('"var": "wildcard"', '"var": "wildcards"');
    expect(problemsOf({ [RULE_PATH]: bad }).join()).toMatch(/tls\.certificate\.sans\[\]\.wildcards/);
  });

  it('refuses a ruleset version that is not semver', () => {
    expect(problemsOf({ [RULE_PATH]: ruleYaml() }, 'one').join()).toMatch(
      /ruleset\.yaml: version must be a semver string/,
    );
  });

  it('refuses malformed YAML and duplicate keys', () => {
    expect(problemsOf({ [RULE_PATH]: 'id: a\nid: b\n' }).join()).toMatch(/YAML/);
  });
});
