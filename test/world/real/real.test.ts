// The real-world corpus: every document real sites publish, served as the good site with that document swapped in,
// passes every required rule, or the failure is judged in writing in its source.yaml; a judged failure that no
// longer happens fails too, so judgements never outlive what they explain. See README.md beside this file.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, RuleResult } from '../../../src/engine/types.ts';
import { worldScanner, type WorldScanner } from '../../golden/scan-world.ts';
import { buildSitesDir, loadCorpus, servedText, type RealEntry } from './corpus.ts';

const entries = loadCorpus();
// Scans wait mostly on the network; two at once keep the corpus within a few minutes on two cores.
const PARALLEL = 2;
const SCAN_TIMEOUT_MS = 180_000;
/** Starting a world of many sites issues a certificate for each; on a loaded machine that takes a while. */
const WORLD_TIMEOUT_MS = 180_000;

const failed = (r: RuleResult) => r.outcome === 'fail' || r.outcome === 'error';
const describeResult = (r: RuleResult) => `${r.id} (${r.level}, ${r.outcome}${r.reason ? `: ${r.reason}` : ''})`;

/** What is wrong with a report given the entry's judgements: unjudged required failures, stale judgements. */
export function disagreements(entry: RealEntry, report: Report): string[] {
  const byId = new Map(report.results.map((r) => [r.id, r]));
  const unjudged = report.results
    .filter((r) => r.level === 'required' && failed(r) && !(r.id in entry.judgements))
    .map((r) => `unjudged required failure: ${describeResult(r)}`);
  const stale = Object.keys(entry.judgements)
    .filter((id) => !byId.has(id) || !failed(byId.get(id)!))
    .map((id) => `judged failure no longer happens: ${id} (${byId.get(id)?.outcome ?? 'no such rule'})`);
  return [...unjudged, ...stale];
}

describe('the real-world corpus', () => {
  let ws: WorldScanner;
  let sitesDir: string;
  const reports = new Map<string, Promise<Report>>();

  beforeAll(async () => {
    sitesDir = buildSitesDir(entries);
    // Judgements of documents, not of speed: the world shares this process and two cores with the scans, so its
    // answers may be slow; generous limits keep a slow answer from becoming a verdict.
    ws = await worldScanner({ DVS_DNS_TIMEOUT_MS: '20000', DVS_REQUEST_TIMEOUT_MS: '30000' }, sitesDir);
    // Every entry's scan is queued at once; a small pool runs them, and each test awaits its own.
    let running = 0;
    const waiting: (() => void)[] = [];
    const slot = async () => {
      if (running >= PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
    };
    const release = () => {
      running--;
      waiting.shift()?.();
    };
    for (const entry of entries) {
      const report = slot().then(() => ws.scan(entry.domain, 'full').finally(release));
      reports.set(
        entry.site,
        report.then((o) => o.report),
      );
    }
  }, WORLD_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.allSettled(reports.values());
    await ws?.stop();
    if (sitesDir) rmSync(sitesDir, { recursive: true, force: true });
  }, WORLD_TIMEOUT_MS);

  it('holds documents of several kinds', () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  it.each(entries.map((e) => [`${e.kind}/${e.slug}`, e] as const))(
    '%s fails no required rule without a written judgement',
    async (_name, entry) => {
      const report = await reports.get(entry.site)!;
      expect(disagreements(entry, report)).toEqual([]);
    },
    SCAN_TIMEOUT_MS,
  );
});

describe('the corpus runner', () => {
  const entry = (hosts: string[]): RealEntry => ({ ...entries[0]!, hosts });

  it('names the test site where the document names its publisher', () => {
    const e = entries.find((x) => x.hosts.length > 0);
    if (!e) return;
    const text = servedText(e);
    for (const host of e.hosts)
      expect(text.toLowerCase()).not.toMatch(new RegExp(`(^|[^\\w.-])${host.replace(/\./g, '\\.')}([^\\w-]|$)`));
  });

  it('counts a judged rule that passes, and an unjudged required failure, as disagreements', () => {
    const report = {
      results: [
        { id: 'a.required', version: 1, level: 'required', outcome: 'fail' },
        { id: 'b.judged', version: 1, level: 'recommended', outcome: 'pass' },
      ],
    } as unknown as Report;
    const e = { ...entry([]), judgements: { 'b.judged': 'a judgement that is long enough' } };
    expect(disagreements(e, report)).toEqual([
      'unjudged required failure: a.required (required, fail)',
      'judged failure no longer happens: b.judged (pass)',
    ]);
  });
});
