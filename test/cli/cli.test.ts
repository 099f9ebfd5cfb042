// The dvs dispatcher and the engine's commands, driven in-process with captured output.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { rulesDir, ruleYaml } from '../engine/helpers.ts';
import { SUITE_CACHE_DIR } from '../suite/ruleset.ts';
import { parseAs } from '../helpers/typed-json.ts';

async function dvs(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    config: loadConfig({ DVS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dvs-cli-')), DVS_CACHE_DIR: SUITE_CACHE_DIR }),
  });
  return { code, out, err };
}

describe('dvs', () => {
  it('prints help, and refuses an unknown command', async () => {
    expect((await dvs('--help')).out).toMatch(/usage: dvs <command>[\s\S]*rules/);
    const r = await dvs('frobnicate');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown command "frobnicate"/);
  });

  it('refuses a bad sub-command with its usage', async () => {
    const r = await dvs('rules', 'explode');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/dvs rules check/);
  });
});

describe('dvs rules', () => {
  it('check reports problems by file and exits non-zero', async () => {
    const dir = rulesDir({ 'tls/protocol/tls13_supported.yaml': ruleYaml({ level: 'maybe' }) });
    const r = await dvs('rules', 'check', '--rules', dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/tls13_supported\.yaml: does not match schemas\/rule\.schema\.json: \/level/);
  });
});

describe('dvs evaluate', () => {
  it('refuses a file that is not an observations document', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'dvs-obs-')), 'x.json');
    writeFileSync(file, '{"hello": 1}');
    const r = await dvs('evaluate', file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not an observations document/);
  });

  it('gives the same bytes twice for the same evidence', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'dvs-obs-')), 'obs.json');
    writeFileSync(
      file,
      JSON.stringify({ target: { domain: 'a.test', observed_at: '2026-01-01T00:00:00Z' }, probes: {} }),
    );
    const a = await dvs('evaluate', file, '--full', '--json');
    const b = await dvs('evaluate', file, '--full', '--json');
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    const report = parseAs('report', a.out);
    expect(report).toMatchObject({ type: 'dvs.report', domain: 'a.test', tier: 'full', verdict: 'INCOMPLETE' });
    expect(readFileSync(file, 'utf8')).toContain('a.test');
  });
});
