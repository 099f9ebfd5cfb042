// Named preconditions (rules/preconditions.yaml): a rule's `when` names a shared clause, loading puts the clause in
// its place, and the catalogue check refuses a name nobody declared and flags one nobody names.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewCatalogue } from '../../src/catalogue/catalogue-problems.ts';
import { loadRuleset, RulesetError, type CheckedRuleset } from '../../src/catalogue/load-ruleset.ts';
import { renderCatalogue } from '../../src/catalogue/rules-doc.ts';
import { evaluateRule } from '../../src/engine/evaluate.ts';
import { FIXTURE_SCHEMAS, ruleYaml, rulesDir } from '../engine/helpers.ts';

const RULE_PATH = 'tls/protocol/tls13_supported.yaml';
const TLS12 = { '==': [{ var: 'tls.versions.tls1_2' }, true] };

const PRECONDITIONS = `
tls12_offered:
  meaning: The site offers TLS 1.2.
  logic: ${JSON.stringify(TLS12)}
tls12_without_13:
  meaning: The site offers TLS 1.2 and states whether it offers 1.3.
  logic: {and: [{precondition: tls12_offered}, {"!=": [{var: tls.versions.tls1_3}, null]}]}
`;

/** The ruleset of a throw-away rules directory, and the directory. */
function fixture(files: Record<string, string>): { dir: string; rs: CheckedRuleset } {
  const dir = rulesDir(files);
  return { dir, rs: loadRuleset({ rulesDir: dir, observationSchemasDir: FIXTURE_SCHEMAS }) };
}

const load = (files: Record<string, string>) => fixture(files).rs;

function problemsOf(files: Record<string, string>): string[] {
  try {
    load(files);
  } catch (err) {
    expect(err).toBeInstanceOf(RulesetError);
    return (err as RulesetError).problems.map((p) => `${path.basename(p.file)}: ${p.message}`);
  }
  return [];
}

describe('named preconditions', () => {
  it('put the named logic in place of the name: same digest, same outcomes as the clause written out', () => {
    const named = load({
      'preconditions.yaml': PRECONDITIONS,
      [RULE_PATH]: ruleYaml({ when: { precondition: 'tls12_offered' } }),
    });
    const written = load({ [RULE_PATH]: ruleYaml({ when: TLS12 }) });
    const [a, b] = [named.rules[0]!, written.rules[0]!];
    expect(a.when).toEqual(TLS12);
    expect(a.digest).toBe(b.digest);
    expect(named.digest).toBe(written.digest);
    const doc = { probes: { tls: { status: 'ok', ms: 1 } }, tls: { versions: { tls1_2: false, tls1_3: true } } };
    expect(evaluateRule(a, doc).outcome).toBe('not_applicable');
    expect(named.preconditions.written.get(a.id)).toEqual({ precondition: 'tls12_offered' });
  });

  it("combine with a rule's own logic and with each other", () => {
    const rs = load({
      'preconditions.yaml': PRECONDITIONS,
      [RULE_PATH]: ruleYaml({
        when: { and: [{ precondition: 'tls12_without_13' }, { '==': [{ var: 'tls.versions.tls1_3' }, false] }] },
      }),
    });
    expect(rs.rules[0]!.when).toEqual({
      and: [
        { and: [TLS12, { '!=': [{ var: 'tls.versions.tls1_3' }, null] }] },
        { '==': [{ var: 'tls.versions.tls1_3' }, false] },
      ],
    });
  });

  it('refuse a name nobody declared, naming the rule file', () => {
    expect(
      problemsOf({ 'preconditions.yaml': PRECONDITIONS, [RULE_PATH]: ruleYaml({ when: { precondition: 'tls9' } }) }),
    ).toEqual([
      'tls13_supported.yaml: when names the precondition "tls9", which rules/preconditions.yaml does not declare',
    ]);
  });

  it('refuse a declaration with bad logic, a later name, or a shape the schema does not allow', () => {
    const bad = `
first:
  meaning: Names one declared below it.
  logic: {precondition: second}
second:
  meaning: Reads a fact no schema defines.
  logic: {==: [{var: tls.versions.tls1_9}, true]}
`;
    expect(problemsOf({ 'preconditions.yaml': bad, [RULE_PATH]: ruleYaml() })).toEqual([
      'preconditions.yaml: first names "second", which is not declared above it',
      'preconditions.yaml: second: logic reads "tls.versions.tls1_9", which no observation schema defines',
    ]);
    expect(problemsOf({ 'preconditions.yaml': 'Bad-Name:\n  meaning: x\n', [RULE_PATH]: ruleYaml() }).join()).toMatch(
      /preconditions\.yaml: does not match schemas\/preconditions\.schema\.json/,
    );
  });

  it('refuse a rule whose requires do not cover what the named logic reads', () => {
    const problems = problemsOf({
      'preconditions.yaml': PRECONDITIONS,
      [RULE_PATH]: ruleYaml({ requires: ['tls.versions.tls1_3'], when: { precondition: 'tls12_offered' } }),
    });
    expect(problems.join()).toMatch(/when reads "tls\.versions\.tls1_2", which is not under its requires/);
  });

  it('are flagged by the catalogue check when no rule names them, directly or through another', () => {
    const { dir, rs } = fixture({
      'preconditions.yaml': `${PRECONDITIONS}unused:\n  meaning: Nobody names this one.\n  logic: ${JSON.stringify(TLS12)}\n`,
      [RULE_PATH]: ruleYaml({ when: { precondition: 'tls12_without_13' } }),
    });
    const docsFile = path.join(mkdtempSync(path.join(tmpdir(), 'dvs-docs-')), 'rules.md');
    const review = reviewCatalogue(rs, { rulesDir: dir, docsFile, fix: false });
    expect(review.problems.filter((p) => p.kind === 'unused').map((p) => p.message)).toEqual([
      'declares the precondition "unused", which no rule names',
    ]);
  });

  it('read in docs/rules.md as their names, each with its meaning and logic', () => {
    const { dir, rs } = fixture({
      'preconditions.yaml': PRECONDITIONS,
      [RULE_PATH]: ruleYaml({ when: { precondition: 'tls12_without_13' } }),
    });
    const text = renderCatalogue(rs, dir);
    expect(text).toContain('- Applies when: `tls12_without_13`\n');
    expect(text).toContain(
      '  - `tls12_without_13` (`tls12_offered and tls.versions.tls1_3 is not null`): The site offers TLS 1.2 and states whether it offers 1.3.\n',
    );
    expect(text).toContain('  - `tls12_offered` (`tls.versions.tls1_2 is true`): The site offers TLS 1.2.\n');
    expect(text).toContain(
      '- `tls12_offered`: The site offers TLS 1.2. Logic: `tls.versions.tls1_2 is true`. Named by 1 rule.\n',
    );
  });
});
