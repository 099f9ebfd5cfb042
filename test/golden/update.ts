// `npm run golden:update`: re-scans the golden sites of the fixture internet and rewrites their saved evidence
// and reports. `-- --rules-only` re-judges the saved evidence without scanning (after a rule change). Run it only
// when a probe, a rule or a site changed on purpose, and review the diff before committing.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { evaluate } from '../../src/engine/evaluate.ts';
import { loadRuleset } from '../../src/engine/ruleset.ts';
import type { Observations } from '../../src/engine/types.ts';
import { goldenJson, stableObservations } from './golden-format.ts';
import { GOLDEN_DIR, GOLDEN_SITES, worldScanner } from './scan-world.ts';

const file = (domain: string, kind: 'observations' | 'report') => path.join(GOLDEN_DIR, `${domain}.${kind}.json`);

function judge(domain: string, observations: Observations, ruleset = loadRuleset()): void {
  const report = evaluate(observations, ruleset, 'full');
  writeFileSync(file(domain, 'report'), goldenJson(canonicalJson(report)));
  console.log(`${domain}: ${report.verdict} (score ${report.score})`);
}

if (process.argv.includes('--rules-only')) {
  const ruleset = loadRuleset();
  for (const { domain } of GOLDEN_SITES) {
    judge(domain, JSON.parse(readFileSync(file(domain, 'observations'), 'utf8')) as Observations, ruleset);
  }
} else {
  const ws = await worldScanner();
  try {
    for (const { domain } of GOLDEN_SITES) {
      const { observations } = await ws.scan(domain, 'full');
      const stable = stableObservations(observations, { https: ws.world.httpsPort, http: ws.world.httpPort });
      writeFileSync(file(domain, 'observations'), JSON.stringify(stable, null, 2) + '\n');
      judge(domain, stable, ws.ruleset);
    }
  } finally {
    await ws.stop();
  }
}
