// The layers stay one-way and free of cycles: cli -> server -> api -> service -> {engine, signing, payments} -> net -> lib,
// with the probes (plugins/) on the engine's contract and the network layer. .dependency-cruiser.json says which layer
// may import which; `npm run deps` prints the same check.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/lib/paths.ts';

const config = JSON.parse(readFileSync(path.join(REPO_ROOT, '.dependency-cruiser.json'), 'utf8')) as {
  forbidden: ICruiseOptions['ruleSet'] extends infer R ? (R extends { forbidden?: infer F } ? F : never) : never;
  options: ICruiseOptions;
};

const describeViolation = (v: IViolation) =>
  `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`;

describe('the architecture', () => {
  it('has no import cycle and no import from a lower layer into a higher one', async () => {
    const cwd = process.cwd();
    process.chdir(REPO_ROOT);
    try {
      const result = await cruise(['src', 'plugins'], {
        ...config.options,
        validate: true,
        ruleSet: { forbidden: config.forbidden },
      });
      const output = result.output as Exclude<typeof result.output, string>;
      expect(output.summary.totalCruised).toBeGreaterThan(100);
      expect(output.summary.violations.map(describeViolation)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  }, 60_000);
});
