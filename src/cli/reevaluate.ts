// `dvs verify --reevaluate`: fetch the evidence a certificate was judged on from its trusted issuer, check it is
// the evidence the certificate names (its digest), judge it again with this dvs's ruleset (only when it is the
// ruleset the certificate names, by digest), and compare every outcome and the verdict byte for byte, and the
// score when this dvs's engine is the one that scored it (the score's formula is the engine's, not the ruleset's).
import { createHash } from 'node:crypto';
import { ENGINE_VERSION, evaluate, type Observations, type Ruleset } from '../engine/index.ts';
import { canonicalJson } from '../lib/canonical-json.ts';
import { parseStrictJson } from '../lib/strict-json.ts';
import type { IssuerClient } from '../signing/issuer-client.ts';
import type { Certificate, CertifiedResult } from '../signing/payload.ts';
import type { Check } from '../signing/verify.ts';

/** A Full Validation's observations are well under the service's own body caps summed over its probes. */
const MAX_EVIDENCE_BYTES = 32 * 1024 * 1024;

async function fetchEvidence(client: IssuerClient, id: string): Promise<Buffer> {
  const path = `/api/certificates/${encodeURIComponent(id)}/evidence`;
  const res = await client.get(path, MAX_EVIDENCE_BYTES);
  if (res.status !== 200) throw new Error(`${client.origin}${path}: HTTP ${res.status}`);
  return res.body;
}

/** A certificate's judgement, or the one its evidence gives again (which may hold no result at all). */
type Judgement = Pick<Certificate['payload'], 'verdict' | 'score'> & { results: readonly CertifiedResult[] };

/**
 * What the certificate states about the judgement, in canonical form, for a byte-for-byte comparison; the score
 * only when `withScore` (another engine's score follows another formula, so a difference there proves nothing).
 */
const judgement = (p: Judgement, withScore: boolean) =>
  canonicalJson({ verdict: p.verdict, ...(withScore ? { score: p.score } : {}), results: p.results });

function differences(stated: Judgement, found: Judgement, withScore: boolean): string[] {
  const out: string[] = [];
  if (stated.verdict !== found.verdict) out.push(`verdict ${stated.verdict} -> ${found.verdict}`);
  if (withScore && stated.score !== found.score) out.push(`score ${stated.score} -> ${found.score}`);
  const byId = new Map(found.results.map((r) => [r.id, r]));
  for (const r of stated.results) {
    const again = byId.get(r.id);
    if (!again) out.push(`${r.id}: not judged again`);
    else if (canonicalJson(again) !== canonicalJson(r)) out.push(`${r.id}: ${r.outcome} -> ${again.outcome}`);
    byId.delete(r.id);
  }
  for (const id of byId.keys()) out.push(`${id}: not in the certificate`);
  return out;
}

/** `loadRuleset` gives this dvs's ruleset; it is called only once the evidence is the certificate's. */
export async function reevaluationChecks(
  client: IssuerClient,
  cert: Certificate,
  loadRuleset: () => Ruleset,
): Promise<Check[]> {
  const { payload } = cert;
  let bytes: Buffer;
  try {
    bytes = await fetchEvidence(client, payload.id);
  } catch (err) {
    return [{ name: 'evidence', ok: false, detail: `the evidence could not be fetched: ${(err as Error).message}` }];
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== payload.evidence_digest)
    return [
      {
        name: 'evidence',
        ok: false,
        detail: `its SHA-256 is ${digest}, the certificate names ${payload.evidence_digest}`,
      },
    ];
  const observations = parseStrictJson(bytes.toString('utf8')) as Observations;
  const checks: Check[] = [
    { name: 'evidence', ok: true, detail: `${bytes.length} bytes, SHA-256 ${digest} as the certificate names` },
  ];

  const ruleset = loadRuleset();
  if (ruleset.digest !== payload.ruleset.digest) {
    checks.push({
      name: 'reevaluation',
      ok: false,
      detail: `not judged: the certificate names ruleset ${payload.ruleset.version} (digest ${payload.ruleset.digest}), this dvs has ${ruleset.version} (digest ${ruleset.digest}); use the dvs release of that ruleset`,
    });
    return checks;
  }
  const report = evaluate(observations, ruleset, 'full');
  const found: Judgement = {
    verdict: report.verdict,
    score: report.score,
    results: report.results
      .map(({ id, version, level, outcome }) => ({ id, version, level, outcome }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
  const sameEngine = payload.engine === ENGINE_VERSION;
  const same = judgement(found, sameEngine) === judgement(payload, sameEngine);
  const score = sameEngine
    ? `and score ${payload.score}`
    : `(its score ${payload.score} is ${payload.engine}'s formula, this dvs has ${ENGINE_VERSION}'s: not compared)`;
  checks.push(
    same
      ? {
          name: 'reevaluation',
          ok: true,
          detail: `ruleset ${ruleset.version} gives the same ${payload.results.length} outcomes and verdict ${payload.verdict} ${score}, byte for byte`,
        }
      : {
          name: 'reevaluation',
          ok: false,
          detail: `judged again, the evidence gives: ${differences(payload, found, sameEngine).join('; ')}`,
        },
  );
  return checks;
}
