// The real catalogue, and the rules in it that judge one probe's observations alone: what each probe's
// world test evaluates its facts against.
import { loadRuleset, type Ruleset } from '../../src/engine/ruleset.ts';
import type { LoadedRule } from '../../src/engine/types.ts';

let loaded: Ruleset | null = null;

export function catalogue(): Ruleset {
  return (loaded ??= loadRuleset());
}

export function rulesReading(namespace: string): LoadedRule[] {
  return catalogue().rules.filter((r) => r.requires.every((p) => p.startsWith(`${namespace}.`)));
}
