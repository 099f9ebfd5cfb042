// A scan's outcomes must not depend on how many others run beside it. Eight scans of sites with large home
// pages (0.6 and 1.4 MB, as real news and shop sites serve) run at once in one process, which holds the event
// loop busy parsing pages while replies wait unread; each must judge exactly as a scan run alone. Before the
// time limits ran on host time (src/net/host-clock.ts), such pages failed http.https.available under load
// with a timeout, or with protocol_error when the limit struck while a compressed body was being decoded.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providers } from '../../plugins/index.ts';
import { catalogue } from '../suite/ruleset.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { createScanner, type Scanner } from '../../src/service/scanner.ts';
import { DEFAULT_SITES_DIR, startWorld, type World } from '../world/index.ts';

const PAGES = [
  { site: 'large-page', domain: 'large-page.test', address: '127.0.30.1', bytes: 600_000 },
  { site: 'larger-page', domain: 'larger-page.test', address: '127.0.30.2', bytes: 1_400_000 },
];
/** Short enough that reading these pages while the process is held up overran it on the wall clock. */
const REQUEST_TIMEOUT_MS = 1500;
const PARALLEL = 8;

/** A page of distinct paragraphs (so it compresses as real text does, not to nothing), `bytes` long. */
function largePage(bytes: number, seed: number): string {
  const parts = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Catalogue</title></head><body><main>',
  ];
  let size = parts[0]!.length;
  for (let x = seed; size < bytes; x = (x * 1103515245 + 12345) % 2147483648) {
    const p = `<p id="item-${x}">Item ${x.toString(36)}, reference ${(x >> 3).toString(16)}.</p>\n`;
    parts.push(p);
    size += p.length;
  }
  return `${parts.join('')}</main></body></html>\n`;
}

/** The good site with its home page swapped for a large one, under another name and address. */
function writeSites(dir: string): void {
  PAGES.forEach((page, i) => {
    const target = path.join(dir, page.site);
    cpSync(path.join(DEFAULT_SITES_DIR, 'good'), target, { recursive: true });
    const yaml = readFileSync(path.join(target, 'site.yaml'), 'utf8')
      .replaceAll('good.test', page.domain)
      .replace(/^address: .*$/m, `address: ${page.address}`)
      .replace(/^ipv6: true$/m, 'ipv6: false');
    writeFileSync(path.join(target, 'site.yaml'), yaml);
    writeFileSync(path.join(target, 'files', 'index.html'), largePage(page.bytes, i + 7));
  });
}

let world: World;
let scanner: Scanner;
let sitesDir: string;

beforeAll(async () => {
  sitesDir = mkdtempSync(path.join(tmpdir(), 'dvs-large-pages-'));
  writeSites(sitesDir);
  world = await startWorld({ sitesDir });
  // The scan's own deadline is a wall-clock budget of the service, not a judgement: widened here so a machine
  // busy with other work cannot end a scan before its outcomes exist.
  const config = loadConfig({
    ...world.env,
    DVS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    DVS_QUICK_DEADLINE_MS: '150000',
  });
  const log = { debug() {}, info() {}, warn() {} };
  scanner = createScanner({ config, ruleset: catalogue(), providers, log, agentKey: null });
});
afterAll(async () => {
  await world?.stop();
  rmSync(sitesDir, { recursive: true, force: true });
});

async function outcomes(domain: string): Promise<Record<string, string>> {
  const { report } = await scanner.scan(domain, 'quick');
  return Object.fromEntries(report.results.map((r) => [r.id, r.outcome]));
}

describe('scans of large pages in parallel', () => {
  it('judge as each scan alone does', { timeout: 400_000 }, async () => {
    const alone: Record<string, string>[] = [];
    for (const page of PAGES) alone.push(await outcomes(page.domain));
    for (const result of alone) expect(result['http.https.available']).toBe('pass');

    const together = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => outcomes(PAGES[i % PAGES.length]!.domain)),
    );
    together.forEach((result, i) => expect(result, PAGES[i % PAGES.length]!.domain).toEqual(alone[i % PAGES.length]));
  });
});
