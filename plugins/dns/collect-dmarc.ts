// DMARC: the policy record at _dmarc.<domain>, else at the organisational domain (RFC 7489 section 6.6.3),
// and whether external report destinations accept the reports (section 7.1).
import { getDomain } from 'tldts';
import type { DmarcFacet, DmarcReport } from './facts.ts';
import { DMARC_VERSION, mailtoDomain, parseDmarc } from './parse-dmarc.ts';
import type { Querier } from './query.ts';
import { txtRecords } from './txt-records.ts';

/** Report destinations checked for authorisation; more than a few is rare. */
const MAX_REPORT_CHECKS = 5;

const organisationalDomain = (domain: string): string => getDomain(domain) ?? domain;

async function reportFacts(
  q: Querier,
  policyDomain: string,
  orgDomain: string,
  uris: string[],
): Promise<DmarcReport[]> {
  return Promise.all(
    uris.slice(0, MAX_REPORT_CHECKS).map(async (uri) => {
      const domain = mailtoDomain(uri);
      const external = domain !== null && organisationalDomain(domain) !== orgDomain;
      if (!external) return { uri, domain, external, authorized: null };
      const grant = await txtRecords(q, `${policyDomain}._report._dmarc.${domain}`, DMARC_VERSION, true);
      return { uri, domain, external, authorized: grant.count > 0 };
    }),
  );
}

export async function collectDmarc(q: Querier, domain: string): Promise<DmarcFacet> {
  const orgDomain = organisationalDomain(domain);
  const [own, org] = await Promise.all([
    txtRecords(q, `_dmarc.${domain}`, DMARC_VERSION),
    orgDomain === domain ? null : txtRecords(q, `_dmarc.${orgDomain}`, DMARC_VERSION),
  ]);
  const found = own.count > 0 ? own : org !== null && org.count > 0 ? org : null;
  const records = found?.records ?? [];
  const parsed = records.length === 1 ? parseDmarc(records[0]!) : null;
  const policyDomain = found === null ? domain : found.name.slice('_dmarc.'.length);
  return {
    name: own.name,
    rcode: own.rcode,
    records,
    count: records.length,
    org_domain: orgDomain,
    location: found?.name ?? null,
    parsed,
    reports: parsed === null ? [] : await reportFacts(q, policyDomain, organisationalDomain(policyDomain), parsed.rua),
  };
}
