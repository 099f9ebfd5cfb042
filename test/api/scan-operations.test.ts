// The Quick Scan input check at the operations: a body that is only a domain already seen valid skips the
// validator, which must not change any answer.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/http/errors.ts';
import { ScanOperations } from '../../src/api/operations/scan-operations.ts';
import type { FullValidations } from '../../src/service/full-validations.ts';
import type { QuickScans } from '../../src/service/quick-scans.ts';
import { scanError } from '../../src/service/scan-result.ts';

const caller = { client: '192.0.2.7', authorization: '' };

function operations(): { ops: ScanOperations; scanned: string[] } {
  const scanned: string[] = [];
  const quickScans = {
    run: (domain: string) => {
      scanned.push(domain);
      return Promise.resolve({ result: scanError(domain), report: null, cached: true });
    },
  } as unknown as QuickScans;
  const fullValidations = {} as FullValidations;
  return { ops: new ScanOperations({ quickScans, fullValidations, extraSuffixes: ['test'] }), scanned };
}

const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: unknown) => (e instanceof ApiError ? e.status : 500),
  );

describe('Quick Scan input', () => {
  it('gives a domain seen valid the same normal form again, and still refuses any other body around it', async () => {
    const { ops, scanned } = operations();
    expect(await status(ops.quickscan({ domain: 'Good.TEST' }, caller))).toBe(200);
    expect(await status(ops.quickscan({ domain: 'Good.TEST' }, caller))).toBe(200);
    expect(scanned).toEqual(['good.test', 'good.test']);
    expect(await status(ops.quickscan({ domain: 'Good.TEST', tier: 'full' }, caller))).toBe(400);
    expect(
      await status(
        ops.quickscan(Object.assign(Object.create({ tier: 'full' }) as object, { domain: 'Good.TEST' }), caller),
      ),
    ).toBe(400);
    expect(await status(ops.quickscan([], caller))).toBe(400);
    expect(scanned).toHaveLength(2);
  });

  it('does not remember a domain that a longer body carried, nor one the schema refuses', async () => {
    const { ops } = operations();
    expect(await status(ops.quickscan({ domain: 'good.test', tier: 'full' }, caller))).toBe(400);
    expect(await status(ops.quickscan({ domain: '' }, caller))).toBe(400);
    expect(await status(ops.quickscan({ domain: '' }, caller))).toBe(400);
    const tooLong = `${'\u00ad'.repeat(300)}good.test`;
    expect(await status(ops.quickscan({ domain: tooLong }, caller))).toBe(400);
    expect(await status(ops.quickscan({ domain: tooLong }, caller))).toBe(400);
  });
});
