import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dropUnreadFacts, unreadExampleFacts } from '../../src/catalogue/example-facts.ts';
import type { LoadedRule, RuleExample } from '../../src/engine/types.ts';
import { loadFixture, ruleYaml } from '../engine/helpers.ts';

const FILE = 'tls/protocol/tls13_supported.yaml';

/** The fixture rule (`tls.versions.tls1_3 == true`) with the given examples. */
function ruleWith(examples: RuleExample[], logic: Record<string, unknown> = {}): LoadedRule {
  return loadFixture({ [FILE]: ruleYaml({ examples, ...logic }) }).rules[0]!;
}

describe('unread example facts', () => {
  it('names the facts an example carries that the logic never reads', () => {
    const rule = ruleWith([
      { name: 'offers 1.3', observations: { tls: { versions: { tls1_3: true, tls1_2: true } } }, expect: 'pass' },
      { name: '1.2 only', observations: { tls: { versions: { tls1_3: false } } }, expect: 'fail' },
    ]);
    expect(unreadExampleFacts(rule)).toEqual([{ example: 'offers 1.3', paths: ['tls.versions.tls1_2'] }]);
  });

  it('counts an item field as read only where the logic over the list reads it', () => {
    const logic = {
      requires: ['tls.certificate'],
      check: { all: [{ var: 'tls.certificate.sans' }, { '==': [{ var: 'wildcard' }, false] }] },
    };
    const sans = [
      { name: 'a.test', wildcard: false },
      { name: 'b.test', wildcard: false },
    ];
    const rule = ruleWith(
      [
        { name: 'no wildcard', observations: { tls: { certificate: { sans } } }, expect: 'pass' },
        { name: 'none', observations: { tls: { certificate: { sans: [] } } }, expect: 'pass' },
        { name: 'one', observations: { tls: { certificate: { sans: [{ wildcard: true }] } } }, expect: 'fail' },
      ],
      logic,
    );
    expect(unreadExampleFacts(rule)).toEqual([{ example: 'no wildcard', paths: ['tls.certificate.sans[].name'] }]);
  });

  it('takes them out of the rule file, keeping every outcome, and leaves nothing to flag', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'dvs-unread-'));
    const rulesDir = path.join(root, 'rules');
    const examples: RuleExample[] = [
      { name: 'offers 1.3', observations: { tls: { versions: { tls1_3: true, tls1_2: true } } }, expect: 'pass' },
      { name: '1.2 only', observations: { tls: { versions: { tls1_3: false, tls1_2: true } } }, expect: 'fail' },
    ];
    const rule = { ...ruleWith(examples), file: `rules/${FILE}` };
    mkdirSync(path.dirname(path.join(root, rule.file)), { recursive: true });
    writeFileSync(path.join(root, rule.file), ruleYaml({ examples }));
    expect(dropUnreadFacts(rule, rulesDir)).toBe(true);
    const text = readFileSync(path.join(root, rule.file), 'utf8');
    expect(text).toContain('observations: {tls: {versions: {tls1_3: true}}}');
    expect(text).not.toContain('tls1_2');
    const reloaded = loadFixture({ [FILE]: text }).rules[0]!;
    expect(unreadExampleFacts(reloaded)).toEqual([]);
  });
});
