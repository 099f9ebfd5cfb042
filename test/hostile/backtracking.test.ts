// What a hostile server can send to a parser so that a backtracking pattern in it runs for hours: long runs of
// white space, "[" or "#" ended by a character the pattern refuses (the cases: fixtures/backtracking-cases.ts).
// With the patterns the parsers had, each case held a core for minutes to hours; the cases run in a child process,
// since synchronous matching cannot be interrupted by the test's timeout, and a child still running after the
// generous bound below is one of them back. The lint rules regexp/no-super-linear-* keep such patterns out.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CASES } from './fixtures/backtracking-cases.ts';

const SCRIPT = path.join(import.meta.dirname, 'fixtures', 'backtracking-cases.ts');
/** The cases take well under a second together; a backtracking pattern takes minutes on any one of them. */
const BOUND_MS = 60_000;

describe('parsers read a hostile body in one pass', () => {
  it('every case returns, with what it read checked', async () => {
    const done: string[] = [];
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT], {
        timeout: BOUND_MS,
        killSignal: 'SIGKILL',
      });
      done.push(...stdout.split('\n').filter((l) => l !== ''));
    } catch (err) {
      const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
      done.push(...stdout.split('\n').filter((l) => l !== ''));
      const stuck = Object.keys(CASES).find((c) => !done.includes(c));
      expect.fail(`case "${stuck}" did not return within ${BOUND_MS / 1000} s, or failed: ${stderr}`);
    }
    expect(done).toEqual(Object.keys(CASES));
  }, 90_000);
});
