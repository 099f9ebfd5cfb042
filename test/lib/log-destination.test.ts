import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/log.ts';
import { logDestination } from '../../src/lib/log-destination.ts';

describe('log destination', () => {
  it("writes one turn's lines in one call at the end of the turn, in order, and the next turn's apart", async () => {
    const writes: string[] = [];
    const log = createLogger(
      { logLevel: 'info' },
      logDestination((text) => writes.push(text)),
    );
    log.info({ n: 1 }, 'first');
    log.info({ n: 2 }, 'second');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toHaveLength(1);
    const lines = writes[0]!
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { n: number; msg: string });
    expect(lines.map((l) => [l.n, l.msg])).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
    log.info({ n: 3 }, 'third');
    await nextTurn();
    expect(writes).toHaveLength(2);
    expect((JSON.parse(writes[1]!) as { n: number }).n).toBe(3);
  });

  it('writes what the turn holds when flushed, and nothing twice', async () => {
    const writes: string[] = [];
    const destination = logDestination((text) => writes.push(text));
    destination.write('a\n');
    destination.flush();
    expect(writes).toEqual(['a\n']);
    await nextTurn();
    destination.flush();
    expect(writes).toEqual(['a\n']);
  });
});
