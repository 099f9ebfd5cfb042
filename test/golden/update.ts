// `npm run golden:update`: re-scans the golden sites of the fixture internet and rewrites their saved evidence
// and reports. `-- --rules-only` re-judges the saved evidence without scanning (after a rule change). Run it only
// when a probe, a rule or a site changed on purpose, and review the diff before committing.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { evaluate } from '../../src/engine/evaluate.ts';
import { loadRuleset } from '../../src/catalogue/load-ruleset.ts';
import type { Ruleset } from '../../src/engine/ruleset.ts';
import type { Observations } from '../../src/engine/types.ts';
import { goldenJson, stableObservations } from './golden-format.ts';
import { GOLDEN_DIR, GOLDEN_SITES, WORLD_EVIDENCE_DIR, worldScanner, type WorldScanner } from './scan-world.ts';

const file = (domain: string, kind: 'observations' | 'report') => path.join(GOLDEN_DIR, `${domain}.${kind}.json`);

function judge(domain: string, observations: Observations, ruleset: Ruleset = loadRuleset()): void {
  const report = evaluate(observations, ruleset, 'full');
  writeFileSync(file(domain, 'report'), goldenJson(canonicalJson(report)));
  console.log(`${domain}: ${report.verdict} (score ${report.score})`);
}

/** The full evidence of every site of the fixture internet, which the quick/full agreement test judges. */
async function saveWorldEvidence(ws: WorldScanner): Promise<void> {
  mkdirSync(WORLD_EVIDENCE_DIR, { recursive: true });
  const queue = ws.world.sites.map((s) => s.domain);
  const worker = async () => {
    for (let domain = queue.shift(); domain !== undefined; domain = queue.shift()) {
      const { observations } = await ws.scan(domain, 'full');
      const stable = stableObservations(observations, { https: ws.world.httpsPort, http: ws.world.httpPort });
      writeFileSync(path.join(WORLD_EVIDENCE_DIR, `${domain}.json`), JSON.stringify(stable, null, 2) + '\n');
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  console.log(`saved the full evidence of ${ws.world.sites.length} sites in ${path.relative(process.cwd(), WORLD_EVIDENCE_DIR)}`);
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
    await saveWorldEvidence(ws);
  } finally {
    await ws.stop();
  }
}
