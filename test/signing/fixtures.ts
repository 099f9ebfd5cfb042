// Shared test material for the signing tests: a hand-made full-tier report, keys from fixed seeds, and a
// fake DNS that answers TXT lookups from a map.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { Report } from '../../src/engine/types.ts';
import { keyFromSeed, SIGNING_KID, type SigningKey } from '../../src/signing/keys.ts';
import type { TxtLookup } from '../../src/signing/verify.ts';

export const BASE_URL = 'https://dvs.example.net';

export function reportFixture(overrides: Partial<Report> = {}): Report {
  return {
    type: 'dvs.report',
    version: 1,
    engine: 'dvs-engine/1.0',
    domain: 'good.test',
    tier: 'full',
    observed_at: '2026-03-01T12:00:00Z',
    verdict: 'CERTIFIED',
    score: 92,
    ruleset: { version: '1.0.0', digest: 'a'.repeat(64) },
    evidence_digest: 'b'.repeat(64),
    counts: { pass: 3, fail: 0, not_applicable: 1, error: 0 },
    probes: { dns: 'ok', tls: 'ok', http: 'ok' },
    results: [
      {
        id: 'tls.protocol.tls13_supported',
        version: 1,
        level: 'required',
        outcome: 'pass',
        observed: { 'tls.versions.tls1_3': true },
      },
      {
        id: 'dns.caa.present',
        version: 2,
        level: 'recommended',
        outcome: 'pass',
        observed: { 'dns.caa': ['0 issue "ca.test"'] },
      },
      {
        id: 'http.redirect.https',
        version: 1,
        level: 'required',
        outcome: 'pass',
        observed: { 'http.redirect.final_scheme': 'https' },
      },
      {
        id: 'wellknown.llms_txt.valid',
        version: 1,
        level: 'informational',
        outcome: 'not_applicable',
        observed: { 'wellknown.llms_txt.status': 404 },
      },
    ],
    ...overrides,
  };
}

/** A signing key from a fixed seed byte, so signatures in tests are reproducible. */
export function fixedKey(fill = 7, kid = SIGNING_KID): Promise<SigningKey> {
  return keyFromSeed(kid, new Uint8Array(32).fill(fill), '2026-01-01T00:00:00.000Z');
}

/** TXT lookups answered from a map; names not in it have no records. */
export function fakeDns(zone: Record<string, string[][]>): TxtLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (name: string): Promise<string[][] | null> => {
    asked.push(name);
    return zone[name] ?? null;
  };
  return Object.assign(lookup, { asked });
}

/** A fresh temporary directory, removed when the calling test ends. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dvs-signing-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
