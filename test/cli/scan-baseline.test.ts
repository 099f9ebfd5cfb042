// The CI gate and the comparison commands against the fixture internet: `dvs scan --baseline` fails only on a
// rule that passed in the baseline and fails now, `--junit` writes what a JUnit reader takes, and `dvs diff`
// names the rules that changed with what each read.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { parse, type TestSuites } from 'junit2json';
import { beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import type { Report } from '../../src/engine/types.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { SUITE_CACHE_DIR } from '../suite/ruleset.ts';
import { useWorld, type SharedWorld } from '../suite/world.ts';

/** What a JUnit reader makes of the file: the testsuites root ours always has. */
async function parseJunit(xml: string): Promise<TestSuites> {
  const parsed = await parse(xml);
  if (!parsed || !('testsuite' in parsed)) throw new Error('no <testsuites> root');
  return parsed;
}

let world: SharedWorld;
let dir: string;
/** Today's Quick Scan of a site without HSTS. */
let today: Report;
let todayFile: string;
/** The same site's report from before it dropped HSTS: the HSTS rule passed then. */
let baselineFile: string;

const HSTS = 'headers.hsts.present';

async function dvs(...argv: string[]) {
  let out = '';
  let err = '';
  const config = loadConfig({ ...world.env, DVS_DATA_DIR: dir, DVS_CACHE_DIR: SUITE_CACHE_DIR });
  const code = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    config,
  });
  return { code, out, err };
}

beforeAll(async () => {
  world = await useWorld();
  dir = mkdtempSync(path.join(tmpdir(), 'dvs-baseline-'));
  const scanned = await dvs('scan', 'http-no-hsts.test', '--json');
  expect(scanned.code, scanned.err).toBe(3);
  today = JSON.parse(scanned.out) as Report;
  todayFile = path.join(dir, 'today.json');
  writeFileSync(todayFile, scanned.out);
  const before: Report = {
    ...today,
    observed_at: '2026-01-01T00:00:00Z',
    results: today.results.map((r) =>
      r.id === HSTS ? { ...r, outcome: 'pass', observed: { ...r.observed, 'http.security_headers.hsts.count': 1 } } : r,
    ),
  };
  baselineFile = path.join(dir, 'baseline.json');
  writeFileSync(baselineFile, JSON.stringify(before));
});

it('exits 4 and names the rule that passed in the baseline and fails now, with what it read', async () => {
  const junit = path.join(dir, 'regressed.xml');
  const r = await dvs('scan', 'http-no-hsts.test', '--baseline', baselineFile, '--junit', junit);
  expect(r.code, r.err).toBe(4);
  expect(r.err).toContain('baseline 2026-01-01T00:00:00Z: 1 rule passed then and fail now:');
  expect(r.err).toContain(`  ${HSTS} (required): pass -> fail`);
  expect(r.err).toContain(
    '    then: http.security_headers.hsts.count = 1\n    now:  http.security_headers.hsts.count = 0\n',
  );
  const xml = readFileSync(junit, 'utf8');
  const failing = (await parseJunit(xml)).testsuite![0]!.testcase!.find((t) => t.name === HSTS);
  expect(failing?.failure?.[0]?.message).toBe('required rule failed; it passed in the baseline');
});

it('passes the gate when nothing that passed fails, though the site is not CERTIFIED', async () => {
  const r = await dvs('scan', 'http-no-hsts.test', '--baseline', todayFile);
  expect(r.code, r.err).toBe(0);
  expect(r.err).toContain('no rule that passed then fails now');
});

it('refuses a baseline of another domain or a file that is no judgement, before scanning', async () => {
  const other = path.join(dir, 'other.json');
  writeFileSync(other, JSON.stringify({ ...today, domain: 'good.test' }));
  const r = await dvs('scan', 'http-no-hsts.test', '--baseline', other);
  expect(r.code).toBe(2);
  expect(r.err).toContain('the baseline is a judgement of good.test, not of http-no-hsts.test');
  const junk = path.join(dir, 'junk.json');
  writeFileSync(junk, '{"hello": 1}');
  const j = await dvs('diff', junk, todayFile);
  expect(j.code).toBe(2);
  expect(j.err).toContain('not a report or a certificate');
});

it('writes JUnit XML with one test case per rule that a JUnit reader takes whole', async () => {
  const junit = path.join(dir, 'plain.xml');
  await dvs('scan', 'http-no-hsts.test', '--junit', junit);
  const xml = readFileSync(junit, 'utf8');
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = await parseJunit(xml);
  const suite = parsed.testsuite![0]!;
  const count = (o: string) => today.results.filter((r) => r.outcome === o).length;
  expect(suite).toMatchObject({
    name: 'http-no-hsts.test',
    tests: today.results.length,
    failures: count('fail'),
    errors: count('error'),
    skipped: count('not_applicable'),
  });
  expect(suite.testcase!.map((t) => t.name)).toEqual(today.results.map((r) => r.id));
  for (const [i, t] of suite.testcase!.entries()) {
    const outcome = today.results[i]!.outcome;
    expect([!!t.failure, !!t.error, !!t.skipped]).toEqual([
      outcome === 'fail',
      outcome === 'error',
      outcome === 'not_applicable',
    ]);
  }
  expect(suite.testcase!.find((t) => t.name === HSTS)?.failure?.[0]?.inner).toContain(
    'http.security_headers.hsts.count = 0',
  );
});

it('dvs diff names the rules that changed, both ways, and exits 0 for identical judgements', async () => {
  const r = await dvs('diff', baselineFile, todayFile);
  expect(r.code).toBe(1);
  expect(r.out).toContain(`1 rule changed outcome:\n  ${HSTS} (required): pass -> fail\n`);
  const back = await dvs('diff', todayFile, baselineFile, '--json');
  const json = JSON.parse(back.out) as {
    changed: { id: string; before: { outcome: string }; after: { outcome: string } }[];
  };
  expect(json.changed.map((c) => [c.id, c.before.outcome, c.after.outcome])).toEqual([[HSTS, 'fail', 'pass']]);
  const same = await dvs('diff', todayFile, todayFile);
  expect(same.code).toBe(0);
  expect(same.out).toContain('no rule changed outcome');
});
