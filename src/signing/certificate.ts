// Issues the certificate of a Full Validation: the report's verdict and per-rule outcomes, named to the
// issuer, anchored in DNS and signed. Nothing here reads a clock, so the same report and key give the same
// bytes (Ed25519 signatures are deterministic).
import { subjectAnchorRecord } from './anchor.ts';
import { canonicalBytes, canonicalJson } from '../lib/canonical-json.ts';
import { CERTIFICATE_TYP, signDetached } from './jws.ts';
import type { SigningKey } from './keys.ts';
import { identityOf, type Certificate, type CertificateCore, type CertifiedResult } from './payload.ts';
import { trimEndOf } from '../lib/trim.ts';

export const JWKS_PATH = '/.well-known/jwks.json';

/** What a certificate states, as a full-tier report of the engine gives it. */
export interface CertifiableReport extends Omit<
  CertificateCore,
  'type' | 'version' | 'tier' | 'results' | 'issuer' | 'issued_at' | 'expires_at'
> {
  tier: string;
  results: readonly CertifiedResult[];
}

export interface IssueInput {
  report: CertifiableReport;
  issuer: { baseUrl: string };
  key: Pick<SigningKey, 'kid' | 'privateKeyObject'>;
  /**
   * When the certificate is signed, and how long after the observations it stays valid. The issuer passes
   * its clock; without it the certificate is dated at its observations (saved evidence re-signed in tests).
   */
  validity?: { issuedAt?: Date; lifetimeSeconds?: number };
}

/** The default validity: 90 days after the observations were made. */
export const DEFAULT_LIFETIME_SECONDS = 90 * 86_400;

/** RFC 3339 in UTC to the second, the form every certificate time takes. */
export const certificateTime = (at: Date): string => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

function validityOf(observedAt: string, validity: IssueInput['validity']): { issued_at: string; expires_at: string } {
  const observed = Date.parse(observedAt);
  if (Number.isNaN(observed)) throw new Error(`observed_at ${observedAt} is not a date`);
  const lifetime = validity?.lifetimeSeconds ?? DEFAULT_LIFETIME_SECONDS;
  const issued = validity?.issuedAt ?? new Date(observed);
  // Observations from the future, or signed after they expired, would give a certificate valid at no moment.
  if (issued.getTime() < observed - 1000)
    throw new Error(`issued_at ${issued.toISOString()} is before observed_at ${observedAt}`);
  const expires = new Date(observed + lifetime * 1000);
  if (expires <= issued)
    throw new Error(`the observations of ${observedAt} are older than the certificate lifetime (${lifetime} s)`);
  return { issued_at: certificateTime(issued), expires_at: certificateTime(expires) };
}

/** A passing or inapplicable result states its outcome only; a failed or errored one also what the rule saw. */
function certifiedResult({ id, version, level, outcome, observed }: CertifiedResult): CertifiedResult {
  const seen = outcome === 'fail' || outcome === 'error';
  return seen && observed ? { id, version, level, outcome, observed } : { id, version, level, outcome };
}

function certifiedResults(report: CertifiableReport): CertificateCore['results'] {
  const results = report.results.map(certifiedResult);
  results.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  results.forEach((r, i) => {
    if (i > 0 && results[i - 1]!.id === r.id) throw new Error(`report lists rule ${r.id} twice`);
  });
  const [first, ...rest] = results;
  if (!first) throw new Error('the report has no rule results: there is nothing to certify');
  return [first, ...rest];
}

export function issueCertificate({ report, issuer, key, validity }: IssueInput): Certificate {
  // A Quick Scan runs a subset of the rules: its verdict is indicative and must never be signed.
  if (report.tier !== 'full') throw new Error(`only a full-tier report is certified, got tier ${report.tier}`);
  const baseUrl = trimEndOf(issuer.baseUrl, '/');
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
    ...validityOf(report.observed_at, validity),
    evidence_digest: report.evidence_digest,
    results: certifiedResults(report),
    issuer: { base_url: baseUrl, jwks_url: baseUrl + JWKS_PATH, kid: key.kid },
  };
  const payload = { ...core, id: identityOf(core).id, anchor: subjectAnchorRecord(core) };
  return { payload, jws: signDetached(canonicalBytes(payload), key, CERTIFICATE_TYP) };
}

/**
 * The certificate as stored and served: canonical JSON of `{payload, jws}`. Its UTF-8 bytes are the
 * certificate's leaf in the transparency log; an inclusion proof travelling with it is not part of them.
 */
export function certificateText({ payload, jws }: Certificate): string {
  return canonicalJson({ payload, jws });
}
