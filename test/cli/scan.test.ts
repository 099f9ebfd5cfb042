// `dvs scan` against the fixture internet, and its saved evidence re-judged offline by `dvs evaluate`.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { SUITE_CACHE_DIR } from '../suite/ruleset.ts';
import { useWorld, type SharedWorld } from '../suite/world.ts';

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});

async function dvs(...argv: string[]) {
  return dvsOn(false, ...argv);
}

/** Runs the CLI with stderr as a terminal (isTTY) or as a pipe. */
async function dvsOn(tty: boolean, ...argv: string[]) {
  let out = '';
  let err = '';
  const config = loadConfig({
    ...world.env,
    DVS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dvs-cli-scan-')),
    DVS_CACHE_DIR: SUITE_CACHE_DIR,
  });
  const code = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: tty },
    config,
  });
  return { code, out, err };
}

it('scans, saves the evidence, and the saved evidence re-evaluates to the same bytes', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'dvs-obs-')), 'good.json');
  const scanned = await dvs('scan', 'good.test', '--full', '--json', '--save-observations', file);
  expect(scanned.code, scanned.err).toBe(0);
  const report = JSON.parse(scanned.out) as { probes: Record<string, string> };
  expect(report).toMatchObject({ domain: 'good.test', tier: 'full', verdict: 'CERTIFIED' });
  // Not a terminal: one plain line per probe on stderr as it finishes, stdout untouched.
  const lines = scanned.err.trimEnd().split('\n');
  const total = Object.keys(report.probes).length;
  expect(lines.map((l) => /^probe (\w+): ok \((\d+)\/(\d+)\)$/.exec(l)?.slice(1))).toEqual(
    lines.map((_, i): unknown[] => [expect.any(String), String(i + 1), String(total)]),
  );
  expect(lines.map((l) => l.split(' ')[1]!.replace(':', '')).sort()).toEqual(Object.keys(report.probes).sort());
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { target: { domain: string } };
  expect(saved.target.domain).toBe('good.test');
  const evaluated = await dvs('evaluate', file, '--full', '--json');
  expect(evaluated.out).toBe(scanned.out);
});

it('prints a readable summary, and exits 3 when the domain is not CERTIFIED', async () => {
  const r = await dvs('scan', 'http-no-hsts.test');
  expect(r.code).toBe(3);
  expect(r.out).toMatch(/^Quick Scan \(indicative\) of http-no-hsts\.test: NOT_CONFORMANT/);
  expect(r.out).toMatch(/headers\.hsts\.present failed/);
  // What the rule saw and what it needs, written from the rule's logic and the result's observed values.
  expect(r.out).toContain(
    '  found: http.response.chain.error=null, http.response.chain.final_scheme="https", http.response.status=200, ',
  );
  expect(r.out).toContain('http.security_headers.hsts.count=0');
  expect(r.out).toContain('  needs: (http.security_headers.hsts.count >= 1) and ');
});

it('on a terminal, rewrites one progress line as probes finish and clears it before the result', async () => {
  const r = await dvsOn(true, 'scan', 'good.test');
  expect(r.out).toMatch(/^Quick Scan \(indicative\) of good\.test/);
  const frames = r.err.split('\r\x1b[2K').filter(Boolean);
  expect(r.err.endsWith('\r\x1b[2K')).toBe(true);
  expect(r.err).not.toContain('\n');
  expect(frames.length).toBeGreaterThan(1);
  frames.forEach((f, i) =>
    expect(f).toMatch(new RegExp(`^scanning good\\.test: ${i + 1}/${frames.length} probes done: `)),
  );
});

it('refuses what is not a domain, and says when a domain does not exist', async () => {
  expect((await dvs('scan', 'https://good.test/')).code).toBe(2);
  const missing = await dvs('scan', 'nxdomain.test');
  expect(missing.code).toBe(1);
  expect(missing.err).toMatch(/does not exist in DNS/);
});

it('with --trace, names each DNS question once with the rules that need it, and the connections per origin', async () => {
  const r = await dvs('scan', 'good.test', '--trace');
  expect(r.code, r.err).toBe(0);
  const text = r.err.slice(r.err.indexOf('Network trace: '));
  const lines = text.split('\n');
  /** The rows under the line that starts with `title`, split at their column gaps. */
  const section = (title: string) => {
    const after = lines.slice(lines.findIndex((l) => l.startsWith(title)) + 1);
    return after
      .slice(
        0,
        after.findIndex((l) => !l.startsWith('  ')),
      )
      .map((l) => l.trim().split(/\s{2,}/));
  };
  const questions = section('DNS queries');
  const asked = questions.map(([question]) => question);
  expect(asked).toEqual([...new Set(asked)]);
  expect(text).toMatch(new RegExp(`^Network trace: ${questions.length} DNS queries, `));
  expect(questions).toContainEqual(['good.test A', expect.stringMatching(/^the pre-scan check: /)]);
  expect(questions).toContainEqual(['_dmarc.good.test TXT', 'dns.dmarc, read by 1 rule: email.dmarc.present']);
  // No rule of the Quick tier reads the nameservers' addresses: their A and AAAA questions are not asked.
  expect(asked.toSorted()).toEqual(
    [
      ...['good.test A', 'good.test AAAA', 'www.good.test A', 'www.good.test AAAA', 'good.test NS', 'good.test SOA'],
      ...['good.test TXT', '_dmarc.good.test TXT', 'good.test CAA', 'good.test DS', 'good.test DNSKEY'],
    ].toSorted(),
  );
  for (const [question, why] of questions)
    expect(why, question).toMatch(/^(the pre-scan check: |[\w.]+, read by \d+ rules?: [\w.]+)/);
  const https = `https://good.test:${world.env.DVS_PROBE_HTTPS_PORT}`;
  expect(section('HTTP connections')).toContainEqual(['1', expect.stringMatching(`^${https} at `), 'HTTP/2']);
  expect(section('HTTP requests per origin')).toContainEqual([expect.stringMatching(/^\d+$/), https]);
  // The reachability and TLS probes observe the handshakes of the connections the requests use (one to each
  // address): only the TLS probe's legacy-version handshakes, TLS 1.0 and 1.1, are its own.
  expect(section('HTTP connections')).toContainEqual(['1', `${https} at ::1`, 'HTTP/2']);
  expect(section("Connections of the probes' own")).toEqual([
    ['2', expect.stringMatching(/^TLS handshake to good\.test:\d+ \(tls\)$/)],
  ]);
  expect(text).toMatch(/^Network trace: 11 DNS queries, 5 connections, /);
});
