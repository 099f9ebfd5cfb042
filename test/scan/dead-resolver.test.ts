// A resolver that never answers leaves nothing observed: every probe times out, every rule is `error`, and
// the verdict is INCOMPLETE, well within the scan's deadline (never NOT_CONFORMANT on absent evidence).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { providers } from '../../plugins/index.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { catalogue } from '../suite/ruleset.ts';
import { createScanner } from '../../src/service/scanner.ts';
import { useWorld, type SharedWorld } from '../suite/world.ts';

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});

it('gives INCOMPLETE, with every probe timed out, when the resolver never answers', async () => {
  const config = loadConfig({
    ...world.env,
    DVS_DNS_SERVERS: world.env.DVS_WORLD_DEAD_DNS!,
    DVS_DNS_TIMEOUT_MS: '500',
    DVS_FULL_DEADLINE_MS: '20000',
    DVS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dvs-dead-dns-')),
  });
  const scanner = createScanner({
    config,
    ruleset: catalogue(),
    providers,
    log: { debug() {}, info() {}, warn() {} },
    agentKey: null,
  });
  expect(await scanner.preflight('good.test', 'full')).toMatchObject({ ok: true });
  const { report, observations } = await scanner.scan('good.test', 'full');
  expect(report.verdict).toBe('INCOMPLETE');
  expect(new Set(Object.values(observations.probes).map((p) => p.status))).toEqual(new Set(['timeout']));
  expect(report.counts).toMatchObject({ pass: 0, fail: 0 });
});
