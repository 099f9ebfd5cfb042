// Names for the parts of the `http` namespace, each derived from the types generated from
// schemas/observations/http.json (`npm run types`): the schema is the one contract.
import type {
  Chain,
  Cookie,
  CspEffective,
  CspPolicy,
  Document,
  Hop,
  HttpObservations,
  JsonLd,
} from '../../src/lib/schema-types/observations/http.ts';

export type { Chain, Cookie, CspEffective, CspPolicy, Hop, HttpObservations, JsonLd };
export type FetchedDocument = Document;

type Facet<K extends keyof HttpObservations> = NonNullable<HttpObservations[K]>;
export type ResponseFacet = Facet<'response'>;
export type CacheControl = NonNullable<ResponseFacet['cache_control']>;
export type SecurityHeadersFacet = Facet<'security_headers'>;
export type Hsts = SecurityHeadersFacet['hsts'];
export type Csp = SecurityHeadersFacet['csp'];
export type PermissionsPolicy = SecurityHeadersFacet['permissions_policy'];
export type ServerHeader = SecurityHeadersFacet['server'];
export type ReportingEndpoints = SecurityHeadersFacet['reporting_endpoints'];
export type ReportTo = SecurityHeadersFacet['report_to'];
export type Nel = SecurityHeadersFacet['nel'];
export type CookiesFacet = Facet<'cookies'>;
export type CorsFacet = Facet<'cors'>;
export type HtmlFacet = Facet<'html'>;
export type MarkdownFacet = Facet<'markdown'>;
export type NotFoundFacet = Facet<'not_found'>;
export type MethodsFacet = Facet<'methods'>;
export type TimingFacet = Facet<'timing'>;
export type CanonicalFacet = Facet<'canonical'>;
export type ManifestFacet = Facet<'manifest'>;
