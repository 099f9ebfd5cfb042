import { describe, expect, it } from 'vitest';
import { compileRule } from '../../src/engine/compile.ts';
import { evaluate, evaluateRule } from '../../src/engine/evaluate.ts';
import type { Observations } from '../../src/engine/types.ts';
import { loadFixture, ruleYaml } from './helpers.ts';

const expiry = ruleYaml({
  id: 'tls.certificate.not_expiring_soon',
  tier: 'full',
  requires: ['tls.certificate.not_after'],
  when: { present: [{ var: 'tls.certificate.not_after' }] },
  check: { '>=': [{ days_between: [{ var: 'target.observed_at' }, { var: 'tls.certificate.not_after' }] }, 14] },
  examples: [
    {
      name: 'far',
      observations: {
        target: { domain: 'a.test', observed_at: '2026-01-01T00:00:00Z' },
        tls: { certificate: { not_after: '2026-06-01T00:00:00Z' } },
      },
      expect: 'pass',
    },
    {
      name: 'near',
      observations: {
        target: { domain: 'a.test', observed_at: '2026-01-01T00:00:00Z' },
        tls: { certificate: { not_after: '2026-01-05T00:00:00Z' } },
      },
      expect: 'fail',
    },
  ],
});
const ruleset = loadFixture({
  'tls/protocol/tls13_supported.yaml': ruleYaml(),
  'tls/certificate/not_expiring_soon.yaml': expiry,
});
const [notExpiring, tls13] = ruleset.rules as [(typeof ruleset.rules)[0], (typeof ruleset.rules)[0]];

function doc(
  extra: Record<string, unknown>,
  probes: Observations['probes'] = { tls: { status: 'ok', ms: 5 } },
): Observations {
  return { target: { domain: 'a.test', observed_at: '2026-01-01T00:00:00Z' }, probes, ...extra };
}

describe('evaluateRule', () => {
  it('passes and fails on the fact', () => {
    expect(evaluateRule(tls13, doc({ tls: { versions: { tls1_2: true, tls1_3: true } } })).outcome).toBe('pass');
    expect(evaluateRule(tls13, doc({ tls: { versions: { tls1_2: true, tls1_3: false } } })).outcome).toBe('fail');
    expect(evaluateRule(tls13, doc({ tls: { versions: { tls1_2: true, tls1_3: null } } })).outcome).toBe('fail');
  });

  it('is an error when a required observation is missing, naming it', () => {
    expect(evaluateRule(tls13, doc({ tls: {} }))).toMatchObject({
      outcome: 'error',
      reason: 'missing observation tls.versions',
    });
  });

  it('is an error when the probe did not finish, naming the probe', () => {
    const r = evaluateRule(tls13, doc({}, { tls: { status: 'timeout', error: 'deadline', ms: 9000 } }));
    expect(r).toMatchObject({ outcome: 'error', reason: 'probe tls: timeout (deadline)' });
  });

  it('is not applicable when `when` is false', () => {
    expect(evaluateRule(notExpiring, doc({ tls: { certificate: { not_after: null, sans: [] } } })).outcome).toBe(
      'not_applicable',
    );
  });

  it('measures time from observed_at, never the clock', () => {
    const d = doc({ tls: { certificate: { not_after: '2026-01-20T00:00:00Z', sans: [] } } });
    expect(evaluateRule(notExpiring, d).outcome).toBe('pass');
    expect(
      evaluateRule(notExpiring, { ...d, target: { domain: 'a.test', observed_at: '2026-01-10T00:00:00Z' } }).outcome,
    ).toBe('fail');
  });

  it('compiles no rule that reads a path it does not require', () => {
    const check = { '==': [{ var: 'tls.certificate.not_after' }, null] };
    expect(() => compileRule({ ...tls13, check })).toThrow('tls.certificate.not_after, not under its requires');
    expect(() => compileRule({ ...tls13, when: { var: 'target.domain' } })).not.toThrow();
  });
});

describe('evaluateRule over nested requires', () => {
  const requires = ['tls.versions', 'tls.versions.tls1_3'];
  const both = { ...tls13, requires, compiled: compileRule({ ...tls13, requires }) };
  const deepFreeze = <T>(v: T): T => {
    if (v !== null && typeof v === 'object') Object.values(v).forEach(deepFreeze);
    return Object.freeze(v);
  };

  it('leaves the document untouched when one required path lies under another', () => {
    const d = doc({ tls: { versions: { tls1_2: true, tls1_3: true } } });
    const before = structuredClone(d);
    expect(evaluateRule(both, deepFreeze(d)).outcome).toBe('pass');
    expect(d).toEqual(before);
  });

  it('is an error when a required path lies under a null one', () => {
    expect(evaluateRule(both, doc({ tls: { versions: null } }))).toMatchObject({
      outcome: 'error',
      reason: 'missing observation tls.versions.tls1_3',
    });
  });

  it('reads a null fact as null and an absent one as missing', () => {
    expect(evaluateRule(both, doc({ tls: { versions: { tls1_2: true, tls1_3: null } } })).outcome).toBe('fail');
    expect(evaluateRule(both, doc({ tls: { versions: { tls1_2: true } } })).outcome).toBe('error');
  });
});

describe('evaluate', () => {
  it('orders results by rule id and filters the quick tier', () => {
    const d = doc({
      tls: { versions: { tls1_2: true, tls1_3: true }, certificate: { not_after: '2027-01-01T00:00:00Z', sans: [] } },
    });
    const full = evaluate(d, ruleset, 'full');
    expect(full.results.map((r) => r.id)).toEqual([
      'tls.certificate.not_expiring_soon',
      'tls.protocol.tls13_supported',
    ]);
    expect(full).toMatchObject({
      verdict: 'CERTIFIED',
      score: 100,
      counts: { pass: 2, fail: 0, error: 0, not_applicable: 0 },
    });
    expect(evaluate(d, ruleset, 'quick').results.map((r) => r.id)).toEqual(['tls.protocol.tls13_supported']);
  });

  it('is NOT_CONFORMANT on a failed required rule and INCOMPLETE on an error', () => {
    expect(evaluate(doc({ tls: { versions: { tls1_2: true, tls1_3: false } } }), ruleset, 'quick').verdict).toBe(
      'NOT_CONFORMANT',
    );
    expect(evaluate(doc({}, { tls: { status: 'error', ms: 1 } }), ruleset, 'quick').verdict).toBe('INCOMPLETE');
  });

  it('names the ruleset and digests the evidence', () => {
    const r = evaluate(doc({ tls: { versions: { tls1_2: true, tls1_3: true } } }), ruleset, 'quick');
    expect(r.ruleset).toEqual({ version: '1.0.0', digest: ruleset.digest });
    expect(r.evidence_digest).toMatch(/^[0-9a-f]{64}$/);
  });
});
