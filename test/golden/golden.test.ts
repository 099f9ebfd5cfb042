// Golden evidence: saved observations re-evaluate to byte-identical reports, and a fresh scan of the fixture
// internet still gives the same verdicts and outcomes. Refresh with `npm run golden:update` (see README.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../src/engine/evaluate.ts';
import { catalogue } from '../suite/ruleset.ts';
import { useWorld } from '../suite/world.ts';
import type { Observations, Report } from '../../src/engine/types.ts';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { goldenJson, TIMING_FACTS } from './golden-format.ts';
import { GOLDEN_DIR, GOLDEN_SITES, worldScanner, type WorldScanner } from './scan-world.ts';

const ruleset = catalogue();
const saved = (domain: string, kind: 'observations' | 'report') => readFileSync(path.join(GOLDEN_DIR, `${domain}.${kind}.json`), 'utf8');
// Timings differ between scans by nature; the saved evidence holds them as zero (golden-format.ts).
const timed = new Set(
  ruleset.rules.filter((r) => r.requires.some((p) => TIMING_FACTS.some((t) => p.startsWith(t)))).map((r) => r.id),
);
const outcomes = (r: Report) =>
  Object.fromEntries(r.results.filter((x) => !timed.has(x.id)).map((x) => [x.id, x.outcome]));

describe.each(GOLDEN_SITES.map((s) => [s.domain, s]))('golden %s', (domain, site) => {
  it('re-evaluates its saved observations to the saved report, byte for byte', () => {
    const observations = JSON.parse(saved(domain, 'observations')) as Observations;
    expect(goldenJson(canonicalJson(evaluate(observations, ruleset, 'full')))).toBe(saved(domain, 'report'));
  });

  it(`has the verdict ${site.verdict} for the reasons it names`, () => {
    const report = JSON.parse(saved(domain, 'report')) as Report;
    expect(report.verdict).toBe(site.verdict);
    const required = report.results.filter((r) => r.level === 'required');
    const failedRequired = required.filter((r) => r.outcome === 'fail' || r.outcome === 'error').map((r) => r.id);
    expect(failedRequired).toEqual(site.because === 'all' ? required.map((r) => r.id) : site.because);
  });
});

describe('a fresh scan of the fixture internet', () => {
  let ws: WorldScanner;
  beforeAll(async () => {
    ws = await worldScanner({}, await useWorld());
  });
  afterAll(async () => {
    await ws?.stop();
  });

  it.each(GOLDEN_SITES.map((s) => [s.domain]))('%s gives the golden outcomes', async (domain) => {
    const golden = JSON.parse(saved(domain, 'report')) as Report;
    const { report } = await ws.scan(domain, 'full');
    expect(report.verdict).toBe(golden.verdict);
    expect(outcomes(report)).toEqual(outcomes(golden));
  });
});
