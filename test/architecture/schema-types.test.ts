// The types in src/lib/schema-types are generated from schemas/ and committed; a schema change without
// `npm run types` leaves them stale, and this fails.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSchemaTypes, TYPES_DIR } from '../../scripts/schema-types.ts';

describe('types generated from schemas/', () => {
  it('are committed as generated (run `npm run types` after changing a schema)', async () => {
    const stale: string[] = [];
    for (const [rel, text] of await generateSchemaTypes()) {
      let committed = '';
      try {
        committed = readFileSync(path.join(TYPES_DIR, rel), 'utf8');
      } catch {
        // Missing counts as stale.
      }
      if (committed !== text) stale.push(rel);
    }
    expect(stale).toEqual([]);
  }, 60_000);
});
