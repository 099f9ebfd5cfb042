// Every file the repository's prose names exists: a path such as src/api/http/errors.ts or docs/api.md in a
// comment, a document or a rule file, and a document named alone in capitals (LEFT-OUT.md, PARSERS.md). Moving
// or deleting a file without mending what cites it fails here.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/lib/paths.ts';

const tracked = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/** Fixture bytes are what sites serve, not the repository's prose. */
const FIXTURES = /^test\/(world|golden|hostile\/sites|api\/sites)\/|\/fixtures\//;
const PROSE = /\.(ts|js|md|yaml|sh)$/;

/** A path from the repository root (or, in a plugin's documents, from the plugin's folder). */
const PATH =
  /(?<![\w./-])((?:src|plugins|test|bench|docs|schemas|rules|scripts|bin)\/[\w./-]*\.(?:json|yaml|ts|js|md|sh|sql))(?![\w-])/g;
/** A document named alone: README.md, LEFT-OUT.md. */
const DOCUMENT = /(?<![\w./-])([A-Z][A-Z-]+\.md)\b/g;
/** Where a capitalised name is a document a scanned site publishes (AGENTS.md), not one of ours. */
const SITE_DOCUMENTS = /^(rules\/|docs\/rules\.md$)/;

function missingReferences(): string[] {
  const names = new Set(tracked.map((f) => path.basename(f)));
  const missing: string[] = [];
  for (const file of tracked.filter((f) => PROSE.test(f) && !FIXTURES.test(f))) {
    const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [, ref] of line.matchAll(PATH)) {
        const found = [REPO_ROOT, path.join(REPO_ROOT, path.dirname(file))].some((dir) =>
          existsSync(path.join(dir, ref!)),
        );
        if (!found) missing.push(`${file}:${i + 1}: ${ref}`);
      }
      if (SITE_DOCUMENTS.test(file)) return;
      for (const [, name] of line.matchAll(DOCUMENT)) if (!names.has(name!)) missing.push(`${file}:${i + 1}: ${name}`);
    });
  }
  return missing;
}

describe('references to files', () => {
  it('name files that exist', () => {
    expect(missingReferences()).toEqual([]);
  });
});
