// Names for the parts of the `dns` namespace, each derived from the types generated from
// schemas/observations/dns.json (`npm run types`): the schema is the one contract.
import type {
  Address,
  CaaRecord,
  DmarcParsed,
  DnsObservations,
  Host,
  HostAddresses,
  HttpsSet,
  Rcode,
  SpfParsed,
  SvcbRecord,
} from '../../src/lib/schema-types/observations/dns.ts';

export type { DnsObservations, HostAddresses, Rcode };
export type AddressFact = Address;
export type HostFact = Host;
export type HttpsRrSet = HttpsSet;
export type SvcbRecordFact = SvcbRecord;
export type CaaRecordFact = CaaRecord;
export type DmarcParsedFact = DmarcParsed;
export type SpfParsedFact = SpfParsed;

type Facet<K extends keyof DnsObservations> = NonNullable<DnsObservations[K]>;
export type AddressesFacet = Facet<'addresses'>;
export type NsFacet = Facet<'ns'>;
export type SoaFacet = Facet<'soa'>;
export type MxFacet = Facet<'mx'>;
export type SpfFacet = Facet<'spf'>;
export type SpfExpansionFacet = Facet<'spf_expansion'>;
export type SpfTarget = SpfExpansionFacet['targets'][number];
export type DmarcFacet = Facet<'dmarc'>;
export type DmarcReport = DmarcFacet['reports'][number];
export type MtaStsFacet = Facet<'mta_sts'>;
export type TlsRptFacet = Facet<'tls_rpt'>;
export type BimiFacet = Facet<'bimi'>;
export type DkimFacet = Facet<'dkim'>;
export type CaaFacet = Facet<'caa'>;
export type HttpsRrFacet = Facet<'https_rr'>;
export type DnssecFacet = Facet<'dnssec'>;
export type RrsigFact = DnssecFacet['rrsigs'][number];
export type TtlFacet = Facet<'ttl'>;
/** What the TXT facets (SPF, DMARC, MTA-STS, TLS-RPT, BIMI) share. */
export type TxtBase = Pick<SpfFacet, 'name' | 'rcode' | 'records' | 'count'>;
