// The logger a command makes: lines below its level are dropped without loading pino, and pino is loaded, with
// the service's settings, at the first line the level lets through.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyLogger } from '../../src/lib/log.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';

/** A destination that keeps each line written to it. */
function capture(): { lines: Record<string, unknown>[]; write(text: string): void } {
  const lines: Record<string, unknown>[] = [];
  return { lines, write: (text) => void lines.push(JSON.parse(text) as Record<string, unknown>) };
}

describe('lazyLogger', () => {
  it('writes the lines its level lets through, as the service logger writes them', () => {
    const out = capture();
    const log = lazyLogger({ logLevel: 'warn' }, out);
    log.debug('not this');
    log.info({ domain: 'a.test' }, 'nor this');
    log.warn({ domain: 'a.test', payment_token: 'secret' }, 'this');
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatchObject({ level: 40, service: 'dvs', domain: 'a.test', msg: 'this' });
    expect(out.lines[0]!.payment_token).toBe('[redacted]');
    const silent = capture();
    lazyLogger({ logLevel: 'silent' }, silent).warn('nothing');
    expect(silent.lines).toEqual([]);
  });

  it('refuses a level pino does not know, as pino does', () => {
    expect(() => lazyLogger({ logLevel: 'loud' })).toThrow(/loud/);
  });

  it('loads pino only when a line is written', () => {
    const log = path.join(REPO_ROOT, 'src/lib/log.ts');
    const script = `
      import { createRequire } from 'node:module';
      const { lazyLogger } = await import(${JSON.stringify(log)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/pino/'));
      const logger = lazyLogger({ logLevel: 'warn' }, { write() {} });
      logger.info('dropped');
      const before = loaded();
      logger.warn('written');
      console.log(JSON.stringify([before, loaded()]));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual([false, true]);
  });
});
