// `npm run golden:update`: re-scans the golden sites of the fixture internet and rewrites their saved evidence
// and reports. Run it only when a probe or a rule changed on purpose, and review the diff before committing.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { evaluate } from '../../src/engine/evaluate.ts';
import { GOLDEN_DIR, GOLDEN_SITES, worldScanner } from './scan-world.ts';

const ws = await worldScanner();
try {
  for (const { domain } of GOLDEN_SITES) {
    const { observations } = await ws.scan(domain, 'full');
    const report = evaluate(observations, ws.ruleset, 'full');
    writeFileSync(path.join(GOLDEN_DIR, `${domain}.observations.json`), JSON.stringify(observations, null, 2) + '\n');
    writeFileSync(path.join(GOLDEN_DIR, `${domain}.report.json`), canonicalJson(report) + '\n');
    console.log(`${domain}: ${report.verdict} (score ${report.score})`);
  }
} finally {
  await ws.stop();
}
