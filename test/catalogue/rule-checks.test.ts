import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  lockOf,
  lockProblems,
  readLock,
  runExamples,
  syntheticDocument,
  weakRuleGate,
} from '../../src/catalogue/rule-checks.ts';
import { ObservationSchemas } from '../../src/catalogue/observation-schemas.ts';
import { RulesetError, type CheckedRuleset } from '../../src/catalogue/load-ruleset.ts';
import { loadFixture, ruleYaml } from '../engine/helpers.ts';

const TLS13 = 'tls/protocol/tls13_supported.yaml';
/** Passes when TLS 1.3 is "not false": null (no evidence) reads as fine, which is what the gate must catch. */
const weak = ruleYaml({ check: { '!=': [{ var: 'tls.versions.tls1_3' }, false] } });

describe('runExamples', () => {
  it('reports each example with what it expected and what it got', () => {
    const runs = runExamples(loadFixture({ [TLS13]: ruleYaml() }));
    expect(runs).toEqual([
      { rule: 'tls.protocol.tls13_supported', example: 'offers 1.3', expected: 'pass', got: 'pass', todo: false },
      { rule: 'tls.protocol.tls13_supported', example: '1.2 only', expected: 'fail', got: 'fail', todo: false },
    ]);
  });
});

describe('weak-rule gate', () => {
  it('builds hollow documents with every probe ok and every fact null or empty', () => {
    const rs = loadFixture({ [TLS13]: ruleYaml() });
    expect(syntheticDocument(rs, 'null')).toMatchObject({
      probes: { tls: { status: 'ok' } },
      tls: { versions: { tls1_2: null, tls1_3: null }, certificate: { not_after: null, sans: [] } },
    });
    expect(syntheticDocument(rs, 'empty')).toMatchObject({ tls: { certificate: { not_after: '', sans: [] } } });
    expect(syntheticDocument(rs, 'yes')).toMatchObject({
      tls: { versions: { tls1_3: true }, certificate: { sans: [{ wildcard: true }] } },
    });
  });

  it('fills schemas built from $ref siblings, allOf, anyOf constraints and const', () => {
    const schemas = new ObservationSchemas(
      new Map([
        [
          'ns',
          {
            type: 'object',
            properties: {
              either: {
                type: 'object',
                properties: { a: { type: 'string' }, b: { type: 'string' } },
                anyOf: [
                  { properties: { a: { type: 'string' } }, required: ['a'] },
                  { properties: { b: { type: 'string' } }, required: ['b'] },
                ],
              },
              merged: {
                allOf: [{ $ref: '#/$defs/base' }, { type: 'object', properties: { extra: { type: 'boolean' } } }],
              },
              extended: { $ref: '#/$defs/base', type: 'object', properties: { more: { type: 'integer' } } },
              fixed: { const: 'v1' },
            },
            $defs: { base: { type: 'object', properties: { status: { type: ['integer', 'null'] } } } },
          },
        ],
      ]),
    );
    const rs = { schemas } as CheckedRuleset;
    expect(syntheticDocument(rs, 'yes')).toMatchObject({
      ns: {
        either: { a: 'yes', b: 'yes' },
        merged: { status: 200, extra: true },
        extended: { status: 200, more: 1 },
        fixed: 'v1',
      },
    });
    expect(syntheticDocument(rs, 'null')).toMatchObject({
      ns: {
        either: { a: null, b: null },
        merged: { status: null, extra: null },
        extended: { status: null, more: null },
        fixed: null,
      },
    });
  });

  it('accepts an explicit rule', () => {
    expect(weakRuleGate(loadFixture({ [TLS13]: ruleYaml() })).refused).toEqual([]);
  });

  it('refuses a required rule that passes on hollow evidence', () => {
    expect(weakRuleGate(loadFixture({ [TLS13]: weak })).refused).toEqual(['tls.protocol.tls13_supported']);
  });

  it('excuses it only with a stated reason, and ignores non-required rules', () => {
    const excused = ruleYaml({
      check: { '!=': [{ var: 'tls.versions.tls1_3' }, false] },
      hollow_pass_reason: 'a stand-in reason that is long enough',
    });
    expect(weakRuleGate(loadFixture({ [TLS13]: excused }))).toMatchObject({
      refused: [],
      excused: ['tls.protocol.tls13_supported'],
    });
    const recommended = ruleYaml({ level: 'recommended', check: { '!=': [{ var: 'tls.versions.tls1_3' }, false] } });
    expect(weakRuleGate(loadFixture({ [TLS13]: recommended })).refused).toEqual([]);
  });

  it('lists rules that pass on the yes-man document', () => {
    expect(weakRuleGate(loadFixture({ [TLS13]: ruleYaml() })).yesMan).toEqual(['tls.protocol.tls13_supported']);
  });
});

describe('version lock', () => {
  const base = loadFixture({ [TLS13]: ruleYaml() }, '1.0.0');
  const lock = lockOf(base);

  it('is clean for an unchanged ruleset', () => {
    expect(lockProblems(base, lock)).toEqual([]);
  });

  it('prose and examples change without a bump', () => {
    const prose = loadFixture(
      { [TLS13]: ruleYaml({ rationale: 'A different, longer explanation of why it matters.' }) },
      '1.0.0',
    );
    expect(lockProblems(prose, lock)).toEqual([]);
  });

  it('refuses a changed meaning without a rule version bump', () => {
    const changed = loadFixture({ [TLS13]: ruleYaml({ level: 'recommended' }) }, '1.1.0');
    expect(lockProblems(changed, lock).join()).toMatch(/meaning changed .* still 1; bump it/);
  });

  it('refuses changed rules under the same ruleset version', () => {
    const bumped = loadFixture({ [TLS13]: ruleYaml({ level: 'recommended', version: 2 }) }, '1.0.0');
    expect(lockProblems(bumped, lock).join()).toMatch(/bump the ruleset version/);
  });

  it('refuses a rule version that goes back', () => {
    const lock2 = lockOf(loadFixture({ [TLS13]: ruleYaml({ level: 'recommended', version: 2 }) }, '1.1.0'));
    const back = loadFixture({ [TLS13]: ruleYaml({ version: 1 }) }, '1.2.0');
    expect(lockProblems(back, lock2).join()).toMatch(/version went back from 2 to 1/);
  });

  it('refuses a ruleset version that goes back', () => {
    const back = loadFixture({ [TLS13]: ruleYaml({ level: 'recommended', version: 2 }) }, '0.9.0');
    expect(lockProblems(back, lock).join()).toMatch(/ruleset version went back from 1.0.0 to 0.9.0/);
  });

  it('reads a missing lock as none and refuses a malformed one, naming the file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dvs-lock-'));
    expect(readLock(path.join(dir, 'absent.json'))).toBeNull();
    for (const [name, text] of [
      ['shape.json', '{"version": "1.0.0"}'],
      ['syntax.json', '{"version": '],
    ]) {
      writeFileSync(path.join(dir, name!), text!);
      expect(() => readLock(path.join(dir, name!))).toThrow(RulesetError);
      expect(() => readLock(path.join(dir, name!))).toThrow(name!);
    }
  });

  it('asks for a new lock after a proper bump', () => {
    const bumped = loadFixture({ [TLS13]: ruleYaml({ level: 'recommended', version: 2 }) }, '1.1.0');
    expect(lockProblems(bumped, lock)).toEqual([
      'rules/ruleset.lock.json is stale for ruleset 1.1.0; run `dvs rules lock`',
    ]);
    expect(lockProblems(bumped, lockOf(bumped))).toEqual([]);
  });
});
