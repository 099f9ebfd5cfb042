// Builds throw-away rule directories for engine tests, over the small schemas in fixtures/observations.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadRuleset } from '../../src/catalogue/load-ruleset.ts';
import type { Ruleset } from '../../src/engine/ruleset.ts';

export const FIXTURE_SCHEMAS = path.join(import.meta.dirname, 'fixtures', 'observations');

/** A valid rule file body; override fields to make it invalid. */
export function ruleYaml(fields: Record<string, unknown> = {}): string {
  const rule = {
    id: 'tls.protocol.tls13_supported',
    version: 1,
    title: 'TLS 1.3 is offered',
    category: 'tls',
    tier: 'quick',
    level: 'required',
    requires: ['tls.versions'],
    check: { '==': [{ var: 'tls.versions.tls1_3' }, true] },
    rationale: 'TLS 1.3 removes legacy key exchange and saves a round trip.',
    remediation: 'Enable TLS 1.3 in the server or CDN configuration.',
    references: ['RFC 8446'],
    examples: [
      { name: 'offers 1.3', observations: { tls: { versions: { tls1_2: true, tls1_3: true } } }, expect: 'pass' },
      { name: '1.2 only', observations: { tls: { versions: { tls1_2: true, tls1_3: false } } }, expect: 'fail' },
    ],
    ...fields,
  };
  return JSON.stringify(rule, null, 2);
}

export function rulesDir(files: Record<string, string>, version = '1.0.0'): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dvs-rules-'));
  writeFileSync(path.join(dir, 'ruleset.yaml'), `version: ${version}\n`);
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
  }
  return dir;
}

export function loadFixture(files: Record<string, string>, version?: string): Ruleset {
  return loadRuleset({ rulesDir: rulesDir(files, version), observationSchemasDir: FIXTURE_SCHEMAS });
}
