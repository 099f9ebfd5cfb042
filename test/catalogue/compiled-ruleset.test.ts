// The run-time ruleset: built and checked once, then loaded from its artifact; an artifact that does not
// match its rules is never used.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { inputsKey, loadRunRuleset } from '../../src/catalogue/compiled-ruleset.ts';
import { evaluate } from '../../src/engine/evaluate.ts';
import type { Ruleset } from '../../src/engine/ruleset.ts';
import type { Observations } from '../../src/engine/types.ts';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { catalogue, checkedCatalogue } from '../suite/ruleset.ts';

const golden = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '..', 'golden', 'http-no-hsts.test.observations.json'), 'utf8'),
) as Observations;

// A full load checks every rule and compiles every schema, seconds on a busy machine: the worker's one
// (checkedCatalogue), shared by the tests. Building an artifact is a full load too, hence the time limit of the
// tests that build one.
const BUILDS_MS = 120_000;
let firstBuild: { dir: string; loaded: Ruleset } | undefined;
/** A fresh cache dir in which loadRunRuleset built the artifact, and what that first call returned. */
function builtArtifact(): { dir: string; loaded: Ruleset } {
  if (firstBuild) return firstBuild;
  const dir = mkdtempSync(path.join(tmpdir(), 'dvs-ruleset-cache-'));
  return (firstBuild = { dir, loaded: loadRunRuleset(dir) });
}

it(
  'loads the same ruleset from its artifact as from the rule files, and judges alike',
  () => {
    const built = checkedCatalogue();
    const { dir, loaded } = builtArtifact();
    expect(loaded.digest).toBe(built.digest);
    const files = readdirSync(dir).filter((f) => !f.startsWith('ruleset-inputs-'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^ruleset-[0-9a-f]{64}\.json$/);
    const cached = loadRunRuleset(dir);
    expect(cached.digest).toBe(built.digest);
    expect(cached.rules[0]!.examples).toEqual([]);
    expect(canonicalJson(evaluate(golden, cached, 'full'))).toBe(canonicalJson(evaluate(golden, built, 'full')));
  },
  BUILDS_MS,
);

it(
  "checks probe output with the artifact's precompiled validators exactly as with compiled ones",
  () => {
    const built = checkedCatalogue();
    const cached = catalogue();
    const broken = { ...(golden.http as object), status: 'teapot', unknown_member: true };
    for (const [ns, value] of [...Object.entries(golden), ['http', broken], ['dns', null]] as const) {
      expect(cached.schemas.validate(ns, value, 'complete')).toBe(built.schemas.validate(ns, value, 'complete'));
    }
    expect(cached.schemas.validate('http', broken, 'complete')).toMatch(/unknown_member/);
  },
  BUILDS_MS,
);

it(
  'refuses an artifact whose bytes do not match its checksum, and rebuilds it from the rule files',
  () => {
    // A copy of an artifact built here, so this test damages its own file and pays for one build, the rebuild.
    const { dir: builtDir, loaded: built } = builtArtifact();
    const name = readdirSync(builtDir).find((f) => !f.startsWith('ruleset-inputs-'))!;
    const dir = mkdtempSync(path.join(tmpdir(), 'dvs-ruleset-cache-'));
    const file = path.join(dir, name);
    copyFileSync(path.join(builtDir, name), file);
    const [checksum, body] = readFileSync(file, 'utf8').split(/\n(.*)/s) as [string, string];
    const artifact = JSON.parse(body) as { rules: { check: unknown }[] };
    const check = artifact.rules[0]!.check;
    artifact.rules[0]!.check = true;
    writeFileSync(file, `${checksum}\n${JSON.stringify(artifact)}`);
    const again = loadRunRuleset(dir);
    expect(again.digest).toBe(built.digest);
    expect(again.rules[0]!.check).toEqual(check);
    const rebuilt = JSON.parse(readFileSync(file, 'utf8').split('\n')[1]!) as { rules: { check: unknown }[] };
    expect(rebuilt.rules[0]!.check).toEqual(check);
  },
  BUILDS_MS,
);

it("keys the artifact by its inputs' contents, worked out again whenever a file or a directory changed", () => {
  const root = mkdtempSync(path.join(tmpdir(), 'dvs-ruleset-inputs-'));
  const rules = path.join(root, 'rules');
  const schemas = path.join(root, 'schemas');
  mkdirSync(path.join(rules, 'dns', 'spf'), { recursive: true });
  mkdirSync(schemas);
  writeFileSync(path.join(rules, 'ruleset.yaml'), 'version: 1.0.0\n');
  writeFileSync(path.join(rules, 'ruleset.lock.json'), '{}\n');
  writeFileSync(path.join(rules, 'dns', 'spf', 'published.yaml'), 'id: dns.spf.published\n');
  writeFileSync(path.join(schemas, 'dns.json'), '{}\n');
  const warm = path.join(root, 'cache');
  /** The key a warm cache gives, checked against the one worked out from nothing. */
  const key = () => {
    const kept = inputsKey(rules, schemas, warm);
    expect(kept).toBe(inputsKey(rules, schemas, mkdtempSync(path.join(root, 'cold-'))));
    return kept;
  };
  // A whole second, so putting it back below restores it to the nanosecond.
  const rule = path.join(rules, 'dns', 'spf', 'published.yaml');
  utimesSync(rule, 1_700_000_000, 1_700_000_000);
  try {
    const first = key();
    expect(key()).toBe(first);
    // The same length and the modification time put back: the change time still moves.
    writeFileSync(rule, 'id: dns.spf.publishes\n');
    utimesSync(rule, 1_700_000_000, 1_700_000_000);
    const edited = key();
    expect(edited).not.toBe(first);
    writeFileSync(path.join(rules, 'dns', 'spf', 'valid.yaml'), 'id: dns.spf.valid\n');
    const added = key();
    expect(added).not.toBe(edited);
    renameSync(path.join(rules, 'dns', 'spf'), path.join(rules, 'dns', 'sender'));
    const moved = key();
    expect(moved).not.toBe(added);
    rmSync(path.join(rules, 'dns', 'sender', 'valid.yaml'));
    const removed = key();
    expect(removed).not.toBe(moved);
    // The named preconditions are an input once the file exists, and its edits move the key.
    const preconditions = path.join(rules, 'preconditions.yaml');
    writeFileSync(preconditions, 'a: {meaning: first, logic: {}}\n');
    const declared = key();
    expect(declared).not.toBe(removed);
    writeFileSync(preconditions, 'a: {meaning: other, logic: {}}\n');
    expect(key()).not.toBe(declared);
    rmSync(preconditions);
    expect(key()).toBe(removed);
    // A cache dir that cannot be written (here, under a file) keeps nothing and still gives the key.
    expect(inputsKey(rules, schemas, path.join(rules, 'ruleset.yaml', 'cache'))).toBe(removed);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
