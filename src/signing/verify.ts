// Verifies a certificate and says what it checked: its structure, the values derived from its content, the
// issuer fields, the JWS header and signature, and, when given a DNS lookup, both DNS anchors. Each check
// is reported on its own, so a failure says which part of the certificate is wrong.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import schema from '../../schemas/certificate.schema.json' with { type: 'json' };
import { anchorPresent, issuerAnchorRecord, subjectAnchorRecord } from './anchor.ts';
import { canonicalBytes } from '../lib/canonical-json.ts';
import { JWKS_PATH } from './certificate.ts';
import { findVerificationKey, thumbprintOf, type Jwks } from './jwks.ts';
import { CERTIFICATE_TYP, verifyDetached, type DetachedVerification } from './jws.ts';
import { originProblem } from '../lib/https-origin.ts';
import { identityOf, type AnchorRecord, type Certificate } from './payload.ts';
import type { Check } from './check.ts';
import { inclusionCheck } from './log-checks.ts';
import { LOG_SCHEMAS } from './log-shapes.ts';

export type { Check };

/** TXT records at a name, each as its list of strings; null when the name has none (NXDOMAIN or NODATA). */
export type TxtLookup = (name: string) => Promise<string[][] | null>;

export interface VerifyOptions {
  jwks: Jwks;
  /**
   * The issuers the verifier trusts (plain https origins). When given, a certificate naming any other issuer
   * fails the `issuer` check: the verifier decides whom to trust, never the certificate.
   */
  trustedIssuers?: readonly string[];
  /** When given, the certificate must be valid at this moment (issued_at <= at < expires_at). */
  at?: Date;
  /** When given, both DNS anchors are checked too. */
  dns?: TxtLookup;
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv);
// A certificate's `log` member refers to the log's schemas by their $id.
for (const logSchema of LOG_SCHEMAS) ajv.addSchema(logSchema);
const validateShape = ajv.compile<Certificate>(schema);

function structureCheck(cert: unknown): Check {
  if (validateShape(cert)) return { name: 'structure', ok: true, detail: 'matches schemas/certificate.schema.json' };
  const problems = (validateShape.errors ?? []).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    return `${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
  });
  return { name: 'structure', ok: false, detail: problems.join('; ') };
}

async function dnsCheck(name: Check['name'], record: AnchorRecord, dns: TxtLookup): Promise<Check> {
  let records: string[][] | null;
  try {
    records = await dns(record.name);
  } catch (err) {
    return { name, ok: false, detail: `TXT lookup of ${record.name} failed: ${(err as Error).message}` };
  }
  if (records === null || records.length === 0)
    return { name, ok: false, detail: `no TXT record at ${record.name}; publish "${record.value}"` };
  return anchorPresent(records, record)
    ? { name, ok: true, detail: `${record.name} TXT "${record.value}"` }
    : { name, ok: false, detail: `no TXT record at ${record.name} matches "${record.value}"` };
}

/**
 * The issuer is a plain https origin, its JWK set is on that origin (or a certificate could name any key it
 * liked), and, when the verifier has a trust list, it is on it.
 */
function issuerCheck(issuer: Certificate['payload']['issuer'], trusted: readonly string[] | undefined): Check {
  const problem = originProblem(issuer.base_url);
  if (problem) return { name: 'issuer', ok: false, detail: `base_url ${issuer.base_url} is refused: ${problem}` };
  const jwksUrl = issuer.base_url + JWKS_PATH;
  if (issuer.jwks_url !== jwksUrl)
    return { name: 'issuer', ok: false, detail: `jwks_url is ${issuer.jwks_url}, expected ${jwksUrl}` };
  if (trusted && !trusted.includes(issuer.base_url))
    return {
      name: 'issuer',
      ok: false,
      detail: `${issuer.base_url} is not a trusted issuer (trusted: ${trusted.join(', ') || 'none'}); trust it with --issuer or DVS_TRUSTED_ISSUERS`,
    };
  const trust = trusted ? 'trusted' : 'not checked against a trust list';
  return { name: 'issuer', ok: true, detail: `${issuer.base_url} (${trust}), keys at ${jwksUrl}` };
}

/** Valid at the moment asked about: signed by then, not yet expired, and its dates in order. */
function validityCheck(payload: Certificate['payload'], at: Date): Check {
  const [observed, issued, expires] = [payload.observed_at, payload.issued_at, payload.expires_at].map(Date.parse);
  const when = at.toISOString();
  if (!(observed! <= expires! && issued! < expires!))
    return {
      name: 'validity',
      ok: false,
      detail: `its dates are out of order (observed ${payload.observed_at}, issued ${payload.issued_at}, expires ${payload.expires_at})`,
    };
  if (at.getTime() >= expires!)
    return {
      name: 'validity',
      ok: false,
      detail: `expired on ${payload.expires_at} (checked at ${when}); ask about an earlier moment with --at`,
    };
  if (at.getTime() < issued!)
    return { name: 'validity', ok: false, detail: `not yet issued at ${when}: issued on ${payload.issued_at}` };
  return {
    name: 'validity',
    ok: true,
    detail: `valid at ${when}: issued ${payload.issued_at}, expires ${payload.expires_at}`,
  };
}

/** The header is good when verification got as far as the signature and names the issuer's key. */
function headerCheck(verified: DetachedVerification, issuerKid: string): Check {
  if (!verified.ok && verified.step !== 'signature') return { name: 'jws_header', ok: false, detail: verified.reason };
  const kid = verified.header?.kid;
  if (kid !== issuerKid)
    return { name: 'jws_header', ok: false, detail: `JWS kid ${kid} is not the issuer's kid ${issuerKid}` };
  const alg = verified.header?.alg;
  return {
    name: 'jws_header',
    ok: true,
    detail: `alg ${alg}, typ ${CERTIFICATE_TYP}, kid ${kid} found in the JWK set`,
  };
}

export async function verifyCertificate(
  cert: unknown,
  { jwks, dns, trustedIssuers, at }: VerifyOptions,
): Promise<Check[]> {
  const structure = structureCheck(cert);
  // Every later check reads members the schema guarantees; without them there is nothing sound to check.
  if (!structure.ok) return [structure];
  const { payload, jws } = cert as Certificate;
  const checks: Check[] = [structure];

  const { id } = identityOf(payload);
  checks.push(
    payload.id === id
      ? { name: 'id', ok: true, detail: `${id} derives from the payload` }
      : { name: 'id', ok: false, detail: `id is ${payload.id}, the payload gives ${id}` },
  );

  const anchor = subjectAnchorRecord(payload);
  const anchorOk = payload.anchor.name === anchor.name && payload.anchor.value === anchor.value;
  checks.push(
    anchorOk
      ? { name: 'anchor', ok: true, detail: `${anchor.name} TXT "${anchor.value}" derives from the payload` }
      : {
          name: 'anchor',
          ok: false,
          detail: `anchor is ${payload.anchor.name} "${payload.anchor.value}", the payload gives ${anchor.name} "${anchor.value}"`,
        },
  );

  checks.push(issuerCheck(payload.issuer, trustedIssuers));
  if (at) checks.push(validityCheck(payload, at));

  const verified = verifyDetached(jws, canonicalBytes(payload), jwks, CERTIFICATE_TYP);
  checks.push(headerCheck(verified, payload.issuer.kid));
  checks.push(
    verified.ok
      ? { name: 'signature', ok: true, detail: `Ed25519 signature verifies with ${verified.header.kid}` }
      : {
          name: 'signature',
          ok: false,
          detail: verified.step === 'signature' ? verified.reason : 'not checked: the JWS header was refused',
        },
  );

  // The proof a Full Validation answered with: checked offline against the signed head it carries.
  if ((cert as Certificate).log) checks.push(inclusionCheck(cert as Certificate, (cert as Certificate).log!, jwks));

  if (dns) {
    checks.push(await dnsCheck('subject_anchor', anchor, dns));
    const key = findVerificationKey(jwks, payload.issuer.kid);
    if (key.ok) {
      const expected = issuerAnchorRecord(
        { kid: key.jwk.kid, thumbprint: await thumbprintOf(key.jwk) },
        payload.issuer.base_url,
      );
      checks.push(await dnsCheck('issuer_anchor', expected, dns));
    } else {
      checks.push({ name: 'issuer_anchor', ok: false, detail: `not checked: ${key.reason}` });
    }
  }
  return checks;
}
