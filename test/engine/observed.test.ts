// Every result says what it saw: the values its rule read, bounded, deterministic, and printed in plain words
// for failed and errored results.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateRule } from '../../src/engine/evaluate.ts';
import { explainResult, foundText, needsText, renderLogic } from '../../src/engine/explain.ts';
import { bounded, MAX_STRING, readPaths } from '../../src/engine/observed.ts';
import type { Observations, Report } from '../../src/engine/types.ts';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';
import { loadFixture, ruleYaml } from './helpers.ts';

const ruleset = loadFixture({
  'tls/protocol/tls13_supported.yaml': ruleYaml({
    when: { '==': [{ var: 'tls.versions.tls1_2' }, true] },
  }),
  'tls/certificate/wildcard_free.yaml': ruleYaml({
    id: 'tls.certificate.wildcard_free',
    level: 'recommended',
    requires: ['tls.certificate.sans'],
    check: { none: [{ var: 'tls.certificate.sans' }, { '==': [{ var: 'wildcard' }, true] }] },
    examples: [
      {
        name: 'exact',
        observations: { tls: { certificate: { sans: [{ name: 'a', wildcard: false }] } } },
        expect: 'pass',
      },
      {
        name: 'wild',
        observations: { tls: { certificate: { sans: [{ name: '*.a', wildcard: true }] } } },
        expect: 'fail',
      },
    ],
  }),
});
const [wildcardFree, tls13] = ruleset.rules as [(typeof ruleset.rules)[0], (typeof ruleset.rules)[0]];

function doc(tls: unknown, status: 'ok' | 'timeout' = 'ok'): Observations {
  return {
    target: { domain: 'a.test', observed_at: '2026-01-01T00:00:00Z' },
    probes: { tls: { status, ms: 1 } },
    ...(tls === undefined ? {} : { tls }),
  };
}

describe('readPaths', () => {
  it('lists the root paths of when and check, not the paths inside a list operation', () => {
    expect(tls13.reads).toEqual(['tls.versions.tls1_2', 'tls.versions.tls1_3']);
    expect(wildcardFree.reads).toEqual(['tls.certificate.sans']);
    expect(readPaths({ check: { missing: ['a.b'] }, when: { var: ['c', 1] } })).toEqual(['a.b', 'c']);
  });
});

describe('observed', () => {
  it('carries the values read, for every outcome, null where the document has none', () => {
    const pass = evaluateRule(tls13, doc({ versions: { tls1_2: true, tls1_3: true } }));
    expect(pass).toMatchObject({
      outcome: 'pass',
      observed: { 'tls.versions.tls1_2': true, 'tls.versions.tls1_3': true },
    });
    const fail = evaluateRule(tls13, doc({ versions: { tls1_2: true } }));
    expect(fail).toMatchObject({
      outcome: 'fail',
      observed: { 'tls.versions.tls1_2': true, 'tls.versions.tls1_3': null },
    });
    const na = evaluateRule(tls13, doc({ versions: { tls1_2: false, tls1_3: true } }));
    expect(na.observed).toEqual({ 'tls.versions.tls1_2': false, 'tls.versions.tls1_3': true });
    const error = evaluateRule(tls13, doc(undefined, 'timeout'));
    expect(error).toMatchObject({
      outcome: 'error',
      observed: { 'tls.versions.tls1_2': null, 'tls.versions.tls1_3': null },
    });
  });

  it('cuts long strings, long lists, wide and deep objects, and says what it left out', () => {
    expect(bounded('x'.repeat(500))).toBe(`${'x'.repeat(MAX_STRING)}… (500 characters)`);
    expect(bounded([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, '… 2 more']);
    const wide = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(bounded(wide) as object)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', '…']);
    expect(bounded({ a: { b: { c: { d: 1 } } } })).toEqual({ a: { b: { c: '{1 keys}' } } });
    // A cut never splits a surrogate pair (the value must stay canonicalisable).
    expect(() => canonicalJson(bounded('x'.repeat(MAX_STRING - 1) + '😀'.repeat(10)))).not.toThrow();
  });

  it('is bounded in size and deterministic for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const once = canonicalJson(bounded(value));
        expect(canonicalJson(bounded(JSON.parse(JSON.stringify(value))))).toBe(once);
        expect(once.length).toBeLessThan(40 * (MAX_STRING * 6 + 64));
      }),
    );
  });

  it("keeps a parsed document's own __proto__ member as a member when it cuts the value", () => {
    // Keys out of order, so the value is copied rather than returned as it is.
    const value = JSON.parse('{"__proto__":{"polluted":true},"":[]}') as Record<string, unknown>;
    const shown = bounded(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(shown)).toBe(Object.prototype);
    expect(Object.hasOwn(shown, '__proto__')).toBe(true);
    expect(canonicalJson(shown)).toBe('{"":[],"__proto__":{"polluted":true}}');
  });

  it('gives the same report bytes whatever the key order, and shares values between rules', () => {
    const d = doc({
      versions: { tls1_2: true, tls1_3: false },
      certificate: { sans: [{ name: '*.a', wildcard: true }] },
    });
    const report = evaluate(d, ruleset, 'full');
    expect(report.results.map((r) => r.observed)).toEqual([
      { 'tls.certificate.sans': [{ name: '*.a', wildcard: true }] },
      { 'tls.versions.tls1_2': true, 'tls.versions.tls1_3': false },
    ]);
    expect(canonicalJson(evaluate(JSON.parse(canonicalJson(d)) as Observations, ruleset, 'full'))).toBe(
      canonicalJson(report),
    );
  });
});

describe('explain', () => {
  it('says what a failed result found and what its rule needs, from the rule and the values', () => {
    const check = { '>=': [{ var: 'http.security_headers.hsts.max_age' }, 15552000] };
    const result = {
      id: 'headers.hsts.max_age_sufficient',
      version: 1,
      level: 'required' as const,
      outcome: 'fail' as const,
      observed: { 'http.security_headers.hsts.max_age': 86400 },
    };
    expect(explainResult(result, check)).toEqual([
      'found: http.security_headers.hsts.max_age=86400',
      'needs: http.security_headers.hsts.max_age >= 15552000',
    ]);
    expect(explainResult({ ...result, outcome: 'error', reason: 'probe http: timeout' }, check)).toEqual([
      'found: http.security_headers.hsts.max_age=86400',
    ]);
  });

  it('writes operations out: infix with parentheses, list operations in words, the rest as calls', () => {
    expect(
      renderLogic({
        and: [
          { '==': [{ var: 'a' }, 'x'] },
          { or: [{ '!': { var: 'b' } }, { between: [{ var: 'c' }, 1, 2] }] },
          { some: [{ var: 'list' }, { in: [{ var: 'kind' }, ['p', 'q']] }] },
        ],
      }),
    ).toBe('(a == "x") and ((not b) or between(c, 1, 2)) and (some item of list: kind in ["p", "q"])');
    expect(renderLogic({ if: [{ var: 'a' }, 1, { var: 'b' }, 2, 3] })).toBe('if a then 1 else if b then 2 else 3');
    expect(renderLogic({ all: [{ var: 'xs' }, { '>': [{ var: '' }, 0] }] })).toBe('every item of xs: the item > 0');
  });

  it('keeps each line bounded', () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p.q${i}`, 'v'.repeat(50)]));
    expect(foundText(many).length).toBeLessThanOrEqual(240);
    expect(needsText({ and: Array.from({ length: 40 }, (_, i) => ({ '==': [{ var: `p.q${i}` }, 1] })) }).length).toBe(
      240,
    );
    expect(foundText({})).toBe('nothing (the rule reads no value)');
  });
});

describe('the report schema (schemas/report.schema.json)', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  const schemaFile = (name: string) =>
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'schemas', name), 'utf8')) as Record<string, unknown>;
  // The report refers to the certificate schema's $defs (domain, sha256) by its relative URI, and the
  // certificate to its transparency-log proof.
  for (const name of ['certificate.schema.json', 'api/log-inclusion.json', 'api/tree-head.json'])
    ajv.addSchema(schemaFile(name));
  const validate = ajv.compile(schemaFile('report.schema.json'));

  it('admits every golden report and a fresh one', () => {
    const dir = path.join(REPO_ROOT, 'test', 'golden');
    const reports = readdirSync(dir)
      .filter((f) => f.endsWith('.report.json'))
      .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Report);
    reports.push(evaluate(doc({ versions: { tls1_2: true } }), ruleset, 'full'));
    expect(reports.length).toBeGreaterThan(5);
    for (const r of reports) expect(validate(r), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it('refuses a result without observed', () => {
    const r = evaluate(doc({ versions: { tls1_2: true } }), ruleset, 'full');
    const { observed: _o, ...lean } = r.results[0]!;
    expect(validate({ ...r, results: [lean] })).toBe(false);
  });
});
