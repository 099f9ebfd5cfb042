// The smaller mail-policy records: MTA-STS and TLS-RPT for inbound SMTP, BIMI for brand logos, and whether
// DKIM selectors exist under _domainkey.
import type { BimiFacet, DkimFacet, MtaStsFacet, TlsRptFacet } from './facts.ts';
import {
  BIMI_VERSION,
  MTA_STS_VERSION,
  TLS_RPT_VERSION,
  parseBimi,
  parseMtaSts,
  parseTlsRpt,
} from './parse-mail-txt.ts';
import type { Querier } from './query.ts';
import { txtRecords } from './txt-records.ts';

export async function collectMtaSts(q: Querier, domain: string): Promise<MtaStsFacet> {
  const base = await txtRecords(q, `_mta-sts.${domain}`, MTA_STS_VERSION);
  const parsed = base.count === 1 ? parseMtaSts(base.records[0]!) : null;
  return { ...base, id: parsed?.id ?? null, errors: parsed?.errors ?? [] };
}

export async function collectTlsRpt(q: Querier, domain: string): Promise<TlsRptFacet> {
  const base = await txtRecords(q, `_smtp._tls.${domain}`, TLS_RPT_VERSION);
  const parsed = base.count === 1 ? parseTlsRpt(base.records[0]!) : null;
  return { ...base, rua: parsed?.rua ?? [], errors: parsed?.errors ?? [] };
}

export async function collectBimi(q: Querier, domain: string): Promise<BimiFacet> {
  const base = await txtRecords(q, `default._bimi.${domain}`, BIMI_VERSION);
  const parsed = base.count === 1 ? parseBimi(base.records[0]!) : null;
  return {
    ...base,
    location: parsed?.location ?? null,
    authority: parsed?.authority ?? null,
    errors: parsed?.errors ?? [],
  };
}

/** Selector names cannot be listed, but an existing _domainkey node answers NOERROR, a missing one NXDOMAIN. */
export async function collectDkim(q: Querier, domain: string): Promise<DkimFacet> {
  const name = `_domainkey.${domain}`;
  return { name, rcode: (await q.ask(name, 'TXT')).rcode };
}
