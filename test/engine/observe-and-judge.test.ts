// The scheduler over stand-in providers: how each run ends, and what a cancelled scan does not start.
import { describe, expect, it } from 'vitest';
import { scan, ScanDeadlineError } from '../../src/engine/observe-and-judge.ts';
import { canonicalJson, sha256Hex } from '../../src/lib/canonical-json.ts';
import type { ProbeProvider } from '../../src/engine/types.ts';
import type { Net } from '../../src/net/types.ts';
import schema from './fixtures/observations/tls.json' with { type: 'json' };
import { loadFixture, ruleYaml } from './helpers.ts';

const ruleset = loadFixture({ 'tls/protocol/tls13_supported.yaml': ruleYaml() });
const log = { debug() {}, info() {}, warn() {} };
const now = () => new Date('2026-03-01T12:00:00.500Z');

function provider(collect: ProbeProvider['collect']): ProbeProvider {
  return { name: 'tls', version: '1.0.0', schema, collect };
}

const run = (p: ProbeProvider, extra: { signal?: AbortSignal; deadlineMs?: number } = {}) =>
  scan('a.test', 'quick', { ruleset, providers: [p], net: {} as Net, deadlineMs: 60_000, log, now, ...extra });

describe('scan', () => {
  it('records a provider that answers, and judges its output', async () => {
    const { observations, report } = await run(provider(async () => ({ versions: { tls1_2: true, tls1_3: true } })));
    expect(observations.target).toEqual({ domain: 'a.test', observed_at: '2026-03-01T12:00:00Z' });
    expect(observations.probes.tls?.status).toBe('ok');
    expect(report.verdict).toBe('CERTIFIED');
  });

  it('gives the canonical evidence once: the text whose SHA-256 is the evidence digest', async () => {
    const { observations, evidence, report } = await run(
      provider(async () => ({ versions: { tls1_3: true, tls1_2: true } })),
    );
    expect(evidence).toBe(canonicalJson(observations));
    expect(evidence).toContain('"versions":{"tls1_2":true,"tls1_3":true}');
    expect(report.evidence_digest).toBe(sha256Hex(evidence));
  });

  it('tells a progress listener as each probe finishes, and a listener that throws does not fail the scan', async () => {
    const heard: unknown[] = [];
    const tls = provider(async () => ({ versions: { tls1_2: true, tls1_3: true } }));
    const { report } = await scan('a.test', 'quick', {
      ...{ ruleset, providers: [tls], net: {} as Net, deadlineMs: 60_000, log, now },
      onProgress: (p) => heard.push(p),
    });
    expect(heard).toEqual([{ probe: 'tls', status: 'ok', done: 1, total: 1 }]);
    const failing = provider(async () => {
      throw new Error('refused');
    });
    const warned: unknown[] = [];
    const outcome = await scan('a.test', 'quick', {
      ...{ ruleset, providers: [failing], net: {} as Net, deadlineMs: 60_000, now },
      log: { ...log, warn: (o: unknown) => warned.push(o) },
      onProgress: () => {
        throw new Error('listener broke');
      },
    });
    expect(outcome.report.verdict).toBe('INCOMPLETE');
    expect(report.verdict).toBe('CERTIFIED');
    expect(warned).toContainEqual({ probe: 'tls', err: 'listener broke' });
  });

  it('records output that breaks the schema as a probe error', async () => {
    const { observations } = await run(provider(async () => ({ versions: { tls1_3: 'yes' } })));
    expect(observations.probes.tls).toMatchObject({ status: 'error' });
    expect(observations.tls).toBeUndefined();
  });

  it('records a provider that rejects with a non-Error value as a probe error', async () => {
    for (const thrown of [undefined, null, 'a string']) {
      const { observations, report } = await run(
        provider(async () => {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- a non-Error rejection is the case under test
          throw thrown;
        }),
      );
      expect(observations.probes.tls).toMatchObject({ status: 'error', error: String(thrown) });
      expect(report.verdict).toBe('INCOMPLETE');
    }
  });

  it('starts no provider for a scan cancelled before it began', async () => {
    let started = 0;
    const cancelled = AbortSignal.abort(new Error('client gone'));
    await expect(
      run(
        provider(async () => (started++, { versions: { tls1_2: true, tls1_3: true } })),
        { signal: cancelled },
      ),
    ).rejects.toThrow('client gone');
    expect(started).toBe(0);
  });

  it('gives up at the deadline naming the probes still running, and aborts their signal', async () => {
    let probeSignal: AbortSignal | undefined;
    const hanging = provider((_domain, ctx) => {
      probeSignal = ctx.signal;
      return new Promise(() => undefined);
    });
    const err = await run(hanging, { deadlineMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScanDeadlineError);
    expect((err as ScanDeadlineError).pending).toEqual(['tls']);
    expect(probeSignal?.aborted).toBe(true);
  });
});
