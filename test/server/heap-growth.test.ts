// The service process's bound on heap growth: V8 knows the flag (it reports any flag it does not, and ignores
// it), and an operator's own setting stands.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from '../../src/server/heap-growth.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';

describe('heap growth', () => {
  it('is bounded unless the operator set it, in either spelling, on the command line or in NODE_OPTIONS', () => {
    const ours = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
    expect(heapGrowthFlag([], undefined)).toBe(ours);
    expect(heapGrowthFlag(['--expose-gc'], '--max-old-space-size=512')).toBe(ours);
    expect(heapGrowthFlag(['--heap-growing-percent=30'], undefined)).toBeNull();
    expect(heapGrowthFlag([], '--heap_growing_percent=50')).toBeNull();
  });

  it('names a flag this Node.js accepts', () => {
    const script = `import('${path.join(REPO_ROOT, 'src/server/heap-growth.ts')}').then((m) => m.boundHeapGrowth())`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(child.status, child.stderr).toBe(0);
    expect(child.stderr).toBe('');
    // The same check does see a flag V8 does not know.
    const typo = spawnSync(
      process.execPath,
      ['-e', "require('v8').setFlagsFromString('--heap-growing-percentage=1')"],
      {
        encoding: 'utf8',
      },
    );
    expect(typo.stderr).toMatch(/unrecognized flag/);
  });
});
