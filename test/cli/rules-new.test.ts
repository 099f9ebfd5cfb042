// `dvs rules new` writes a file that names every field, and `dvs rules check` refuses it until it is filled in.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/rules.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';
import { UsageError } from '../../src/cli/io.ts';

function captureIo() {
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: { write: (s: string) => ((out.stdout += s), true) },
    stderr: { write: (s: string) => ((out.stderr += s), true) },
  };
  return { out, io: io as unknown as Parameters<typeof run>[1] };
}

describe('dvs rules new', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function copyOfRepo(): string {
    dir = mkdtempSync(path.join(tmpdir(), 'dvs-rules-new-'));
    for (const sub of ['rules', 'schemas', 'docs'])
      cpSync(path.join(REPO_ROOT, sub), path.join(dir, sub), { recursive: true });
    return path.join(dir, 'rules');
  }

  it('writes every field with a pass and a fail example, which check refuses until filled in', async () => {
    const rulesDir = copyOfRepo();
    const { io } = captureIo();
    const args = [
      'new',
      'headers.hsts.sample_rule',
      '--rules',
      rulesDir,
      '--level',
      'required',
      '--requires',
      'http.hsts.valid',
    ];
    expect(await run(args, io)).toBe(0);
    const text = readFileSync(path.join(rulesDir, 'headers', 'hsts', 'sample_rule.yaml'), 'utf8');
    for (const field of [
      'id',
      'version',
      'title',
      'category',
      'tier',
      'level',
      'requires',
      'when',
      'check',
      'rationale',
      'remediation',
      'references',
      'examples',
    ]) {
      expect(text).toMatch(new RegExp(`^${field}:`, 'm'));
    }
    expect(text).toContain('expect: pass');
    expect(text).toContain('expect: fail');

    const checked = captureIo();
    expect(await run(['check', '--rules', rulesDir], checked.io)).toBe(1);
    expect(checked.out.stderr).toContain('headers/hsts/sample_rule.yaml');
  });

  it('refuses an id outside the closed category list, a bad level and an existing rule', async () => {
    const rulesDir = copyOfRepo();
    const { io } = captureIo();
    await expect(run(['new', 'nosuch.thing.here', '--rules', rulesDir], io)).rejects.toThrow(UsageError);
    await expect(run(['new', 'headers.x.y', '--rules', rulesDir, '--level', 'vital'], io)).rejects.toThrow(/--level/);
    await expect(run(['new', 'headers.hsts.present', '--rules', rulesDir], io)).rejects.toThrow(/exists/);
  });
});
