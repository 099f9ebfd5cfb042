// Issues the certificate of a Full Validation: the report's verdict and per-rule outcomes, named to the
// issuer, anchored in DNS and signed. Nothing here reads a clock, so the same report and key give the same
// bytes (Ed25519 signatures are deterministic).
import { subjectAnchorRecord } from './anchor.ts';
import { canonicalBytes, canonicalJson } from '../lib/canonical-json.ts';
import { CERTIFICATE_TYP, signDetached } from './jws.ts';
import type { SigningKey } from './keys.ts';
import { identityOf, type Certificate, type CertificateCore, type CertifiedResult } from './payload.ts';

export const JWKS_PATH = '/.well-known/jwks.json';

/** What a certificate states, as a full-tier report of the engine gives it. */
export interface CertifiableReport extends Omit<CertificateCore, 'type' | 'version' | 'tier' | 'results' | 'issuer'> {
  tier: string;
  results: readonly CertifiedResult[];
}

export interface IssueInput {
  report: CertifiableReport;
  issuer: { baseUrl: string };
  key: Pick<SigningKey, 'kid' | 'privateKeyObject'>;
}

/** A passing or inapplicable result states its outcome only; a failed or errored one also what the rule saw. */
function certifiedResult({ id, version, level, outcome, observed }: CertifiedResult): CertifiedResult {
  const seen = outcome === 'fail' || outcome === 'error';
  return seen && observed ? { id, version, level, outcome, observed } : { id, version, level, outcome };
}

function certifiedResults(report: CertifiableReport): CertifiedResult[] {
  const results = report.results.map(certifiedResult);
  results.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  results.forEach((r, i) => {
    if (i > 0 && results[i - 1]!.id === r.id) throw new Error(`report lists rule ${r.id} twice`);
  });
  return results;
}

export function issueCertificate({ report, issuer, key }: IssueInput): Certificate {
  // A Quick Scan runs a subset of the rules: its verdict is indicative and must never be signed.
  if (report.tier !== 'full') throw new Error(`only a full-tier report is certified, got tier ${report.tier}`);
  if (report.results.length === 0) throw new Error('the report has no rule results: there is nothing to certify');
  const baseUrl = issuer.baseUrl.replace(/\/+$/, '');
  const core: CertificateCore = {
    type: 'dvs.certificate',
    version: 1,
    domain: report.domain,
    verdict: report.verdict,
    score: report.score,
    tier: 'full',
    ruleset: { version: report.ruleset.version, digest: report.ruleset.digest },
    engine: report.engine,
    observed_at: report.observed_at,
    evidence_digest: report.evidence_digest,
    results: certifiedResults(report),
    issuer: { base_url: baseUrl, jwks_url: baseUrl + JWKS_PATH, kid: key.kid },
  };
  const payload = { ...core, id: identityOf(core).id, anchor: subjectAnchorRecord(core) };
  return { payload, jws: signDetached(canonicalBytes(payload), key, CERTIFICATE_TYP) };
}

/** The certificate as stored and served: canonical JSON of `{payload, jws}`. */
export function certificateText(certificate: Certificate): string {
  return canonicalJson(certificate);
}
