// What a hostile server can send so that a parser takes minutes to hours over one body, or fails on it: long runs
// of white space, "[" or "#" ended by a character a backtracking pattern refuses, thousands of items that a parser
// compared pairwise, or spread as arguments, and nesting deeper than the call stack (the cases:
// fixtures/linear-time-cases.ts). The cases run in a child process, since synchronous work cannot be interrupted
// by the test's timeout, and a child still running after the generous bound below is one of them back. The lint
// rules regexp/no-super-linear-* keep backtracking patterns out.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CASES } from './fixtures/linear-time-cases.ts';

const SCRIPT = path.join(import.meta.dirname, 'fixtures', 'linear-time-cases.ts');
/** The cases take about a second together; the parsers they were written against took minutes on each. */
const BOUND_MS = 60_000;

describe('parsers read a hostile body in linear time', () => {
  it('every case returns, with what it read checked', async () => {
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], {
      timeout: BOUND_MS,
      killSignal: 'SIGKILL',
    }).then(
      ({ stdout }) => ({ stdout, failure: null }),
      (err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', failure: err.stderr ?? '' }),
    );
    const done = run.stdout.split('\n').filter((l) => l !== '');
    if (run.failure !== null) {
      const stuck = Object.keys(CASES).find((c) => !done.includes(c));
      expect.fail(`case "${stuck}" did not return within ${BOUND_MS / 1000} s, or failed: ${run.failure}`);
    }
    expect(done).toEqual(Object.keys(CASES));
  }, 90_000);
});
