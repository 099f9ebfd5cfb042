// What each probe's world test shares: the context a probe runs with against the fixture internet, and the
// real catalogue with the rules in it that judge one probe's observations alone.
import { loadConfig } from '../../src/lib/config.ts';
import type { LoadedRule, ProbeContext } from '../../src/engine/types.ts';
import { createNet } from '../../src/net/index.ts';
import { catalogue } from '../suite/ruleset.ts';

export { catalogue };

/** observed_at for these tests: now, at second precision like a scan's. */
export const OBSERVED_AT = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const silent = { debug() {}, info() {}, warn() {} };

/** A probe context on a fresh guarded network configured for the world (plus any overrides). */
export function worldContext(env: Record<string, string>, needs: (path: string) => boolean = () => true): ProbeContext {
  return {
    net: createNet(loadConfig(env)),
    signal: AbortSignal.timeout(20_000),
    observedAt: OBSERVED_AT,
    log: silent,
    needs,
  };
}

export function rulesReading(namespace: string): LoadedRule[] {
  return catalogue().rules.filter((r) => r.requires.every((p) => p.startsWith(`${namespace}.`)));
}
