// The ruleset as a run loads it. Checking every rule file (YAML, the rule schema, the logic against the
// observation schemas, every example's observations) is the job of `dvs rules check` and the tests; a scan or
// a starting service loads the checked result instead. Design: a build-on-first-use artifact, keyed by the
// SHA-256 of every rule file and observation schema, so an edited file can never be served stale and nothing
// generated is committed (no merge conflicts on a derived file). It is written only when the checked ruleset
// matches rules/ruleset.lock.json, so what a run loads is always a ruleset whose digests the lock records.
// The artifact also holds the observation validators as code (ajv's standalone output): compiling them took a
// `dvs scan` over a second of CPU at every start.
//
// Its first line is the SHA-256 of the rest, checked before anything in it is used: a damaged file is rebuilt,
// never half read. Its key covers the lock, and it was written only when the rules matched the lock, so the
// digests it carries are the lock's; they are not recomputed at each start (canonical JSON of 400 rules was
// a third of what loading the artifact cost).
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../lib/paths.ts';
import { writeAside } from '../lib/write-aside.ts';
import { compileRule } from '../engine/compile.ts';
import { ObservationSchemas } from './observation-schemas.ts';
import { readPaths } from '../engine/observed.ts';
import { lockProblems, readLock } from './rule-checks.ts';
import { listYaml, loadRuleset, PRECONDITIONS_FILE } from './load-ruleset.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { LoadedRule } from '../engine/types.ts';

interface Artifact {
  version: string;
  digest: string;
  rules: Omit<LoadedRule, 'reads' | 'compiled'>[];
  /** CommonJS source of the complete observation validators (ObservationSchemas.standaloneCode). */
  validators: string;
}

/** The ruleset's inputs: its files, and the directories they were listed from. */
function inputsOf(rulesDir: string, schemasDir: string): { files: string[]; dirs: string[] } {
  const dirs: string[] = [];
  const files = [
    path.join(rulesDir, 'ruleset.yaml'),
    path.join(rulesDir, 'ruleset.lock.json'),
    // A catalogue may declare no preconditions; adding the file changes its directory's stamp.
    ...[path.join(rulesDir, PRECONDITIONS_FILE)].filter((f) => existsSync(f)),
    ...listYaml(rulesDir, dirs),
    ...readdirSync(schemasDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => path.join(schemasDir, f)),
  ];
  dirs.push(schemasDir);
  return { files, dirs };
}

/** SHA-256 over the names and contents of the files. */
function contentsKey(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(f).update('\0').update(readFileSync(f)).update('\0');
  return hash.digest('hex');
}

/**
 * A digest of the paths' metadata (size, inode, modification and change times, as git's index compares them),
 * or null when one is gone. A file written in place changes its times; one added, removed or renamed changes its
 * directory's; no one can set a change time back.
 */
function metadataStamp(paths: readonly string[]): string | null {
  const hash = createHash('sha256');
  for (const p of paths) {
    let s: BigIntStats;
    try {
      s = statSync(p, { bigint: true });
    } catch {
      return null;
    }
    hash.update(`${p}\0${s.size}\0${s.ino}\0${s.mtimeNs}\0${s.ctimeNs}\0`);
  }
  return hash.digest('hex');
}

/** The last key worked out, with the inputs it was worked out from and their stamp. */
interface KeyRecord {
  key: string;
  paths: string[];
  stamp: string;
}

/**
 * SHA-256 over the names and contents of every input of the ruleset. Reading the 430 rule files and listing their
 * directories was a twentieth of a cold `dvs scan`, so the key is kept in `cacheDir` with a stamp of its inputs'
 * metadata (size, inode, modification and change times, as git's index keeps) and worked out again only when the
 * stamp differs.
 */
export function inputsKey(rulesDir: string, schemasDir: string, cacheDir: string): string {
  const recordFile = path.join(
    cacheDir,
    `ruleset-inputs-${createHash('sha256').update(rulesDir).digest('hex').slice(0, 16)}.json`,
  );
  let record: Partial<KeyRecord> | null = null;
  try {
    record = JSON.parse(readFileSync(recordFile, 'utf8')) as Partial<KeyRecord>;
  } catch {
    // None yet, or unreadable: worked out below.
  }
  if (typeof record?.key === 'string' && Array.isArray(record.paths) && metadataStamp(record.paths) === record.stamp)
    return record.key;
  const { files, dirs } = inputsOf(rulesDir, schemasDir);
  const paths = [...dirs, ...files];
  // Stamped before the contents are read: a file changed meanwhile no longer matches the stamp next time.
  const stamp = metadataStamp(paths);
  const key = contentsKey(files);
  if (stamp !== null) {
    try {
      writeAside(recordFile, JSON.stringify({ key, paths, stamp } satisfies KeyRecord), { privateToUser: true });
    } catch {
      // A cache dir this process may not write: the key is worked out from the contents at each start.
    }
  }
  return key;
}

/** Defines `key` on `target` as worked out on first read, then kept as a plain value. */
function onFirstRead<T extends object, K extends keyof T>(target: T, key: K, make: () => T[K]): void {
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get(): T[K] {
      const value = make();
      Object.defineProperty(target, key, { value, configurable: true, enumerable: true, writable: true });
      return value;
    },
  });
}

/**
 * A run's rules, each compiled when a tier first judges with it: a Quick Scan judges 100 of the catalogue's 430,
 * and compiling all of them was a fifth of loading the artifact. The artifact holds only rules that were checked
 * and compiled when it was written, so compiling one later cannot fail.
 */
function fromArtifact(a: Artifact, schemas: ObservationSchemas): Ruleset {
  const rules: LoadedRule[] = a.rules.map((r) => {
    const rule = { ...r } as LoadedRule;
    onFirstRead(rule, 'reads', () => readPaths(r));
    onFirstRead(rule, 'compiled', () => compileRule(r));
    return rule;
  });
  return { version: a.version, digest: a.digest, rules, byId: new Map(rules.map((r) => [r.id, r])), schemas };
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * The artifact's bytes: its checksum on the first line, then the artifact as JSON, in ASCII (the few characters of
 * rule texts beyond it escaped), which a start reads as Latin-1 instead of decoding 2 MB of UTF-8.
 */
function artifactText(artifact: Artifact): string {
  const body = JSON.stringify(artifact).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `${sha256(body)}\n${body}`;
}

/**
 * The repository's ruleset for a run: from the artifact in `cacheDir` when one matches the inputs, otherwise
 * fully loaded and checked (and then cached if it matches the lock).
 */
export function loadRunRuleset(cacheDir: string): Ruleset {
  const rulesDir = path.join(REPO_ROOT, 'rules');
  const schemasDir = path.join(REPO_ROOT, 'schemas', 'observations');
  const file = path.join(cacheDir, `ruleset-${inputsKey(rulesDir, schemasDir, cacheDir)}.json`);
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(file);
  } catch {
    // No artifact yet: build it below.
  }
  if (bytes !== null) {
    const cached = fromArtifactBytes(bytes, file, schemasDir);
    if (cached) return cached;
  }
  const ruleset = loadRuleset();
  const lock = readLock(path.join(rulesDir, 'ruleset.lock.json'));
  if (lock && lockProblems(ruleset, lock).length === 0) {
    const artifact: Artifact = {
      version: ruleset.version,
      digest: ruleset.digest,
      rules: ruleset.rules.map(({ reads: _r, compiled: _c, examples: _e, ...rule }) => ({
        ...rule,
        examples: [],
      })),
      validators: ruleset.schemas.standaloneCode(),
    };
    const written = artifactText(artifact);
    writeAside(file, written, { privateToUser: true });
    // The run goes on from what it wrote, as the next run will: the full load (examples, every schema compiled
    // twice, the YAML) is left to the garbage collector instead of being held for the life of the service.
    return fromArtifactBytes(Buffer.from(written), file, schemasDir) ?? ruleset;
  }
  return ruleset;
}

/** The ruleset in an artifact's bytes, checked and hashed as bytes: decoded once, never encoded again to hash. */
function fromArtifactBytes(bytes: Buffer, file: string, schemasDir: string): Ruleset | null {
  const newline = bytes.indexOf(0x0a);
  if (newline !== 64) return null;
  const checksum = bytes.toString('latin1', 0, newline);
  const body = bytes.subarray(newline + 1);
  if (sha256(body) !== checksum) return null;
  const artifact = JSON.parse(body.toString(isAscii(body) ? 'latin1' : 'utf8')) as Partial<Artifact>;
  // An artifact of an earlier layout under the same inputs is rebuilt, not half used.
  if (typeof artifact.validators !== 'string' || !Array.isArray(artifact.rules)) return null;
  // The code cache is named by the artifact's checksum, which changes with the validators' code.
  const codeCache = path.join(path.dirname(file), `validators-${checksum}.v8`);
  const validators = ObservationSchemas.loadStandalone(artifact.validators, `${file}#validators`, codeCache);
  return fromArtifact(artifact as Artifact, ObservationSchemas.fromDirectory(schemasDir, validators));
}
