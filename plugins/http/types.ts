// The shape of the `http` namespace, facet by facet. schemas/observations/http.json is the same contract for
// ajv and for the rule loader; keep the two in step.

/** One response of a redirect chain, as received. */
export interface Hop {
  url: string;
  status: number;
  /** The Location header resolved against the hop's URL (null when absent or unparsable). */
  location: string | null;
  /** The Strict-Transport-Security value on this hop, when the hop came over HTTPS. */
  strict_transport_security: string | null;
}

/** A URL followed hop by hop, each hop its own request through the guarded network. */
export interface Chain {
  url: string;
  /** The network error that stopped the chain (a NetErrorCode, or `too_many_redirects`), else null. */
  error: string | null;
  hops: Hop[];
  redirects: number;
  loop: boolean;
  /** Some hop went from an https: URL to an http: one. */
  downgrade: boolean;
  first_status: number | null;
  first_location: string | null;
  first_location_scheme: string | null;
  /** The first Location names the host that was requested. */
  first_location_same_host: boolean | null;
  final_url: string | null;
  final_scheme: string | null;
  final_host: string | null;
  final_status: number | null;
}

export interface CacheControl {
  raw: string;
  /** Directive names, lower-cased and sorted. */
  directives: string[];
  max_age: number | null;
}

export interface ResponseFacet {
  chain: Chain;
  status: number | null;
  headers: Record<string, string>;
  content_type: string | null;
  charset: string | null;
  content_encoding: string | null;
  body_bytes: number | null;
  wire_bytes: number | null;
  body_sha256: string | null;
  truncated: boolean | null;
  http_version: string | null;
  ttfb_ms: number | null;
  /** The Date header as ISO 8601 UTC. */
  date: string | null;
  cache_control: CacheControl | null;
  vary: string[];
  /** ALPN protocol ids advertised in Alt-Svc, sorted. */
  alt_svc: string[];
  x_robots_tag: string | null;
}

export interface Hsts {
  values: string[];
  count: number;
  max_age: number | null;
  include_subdomains: boolean;
  preload: boolean;
  duplicate_directives: string[];
  parse_errors: string[];
  /** HSTS on the first HTTPS response when that response is a redirect; null when it is not a redirect. */
  on_first_redirect: boolean | null;
}

export interface CspPolicy {
  raw: string;
  directives: Record<string, string[]>;
  duplicate_directives: string[];
  unknown_directives: string[];
  /** script-src, else default-src; null when neither restricts scripts. */
  script_src: string[] | null;
  object_src: string[] | null;
  script_unsafe_inline: boolean;
  script_unsafe_eval: boolean;
  script_data: boolean;
  script_wildcard: boolean;
  object_none: boolean;
  insecure_sources: string[];
  frame_ancestors: string[] | null;
  base_uri: string[] | null;
  form_action: string[] | null;
  reporting: boolean;
}

export interface Csp {
  policies: CspPolicy[];
  report_only: CspPolicy[];
}

export interface PermissionsPolicy {
  raw: string | null;
  features: string[];
  parse_error: string | null;
}

export interface SecurityHeadersFacet {
  hsts: Hsts;
  csp: Csp;
  x_content_type_options: string | null;
  x_frame_options: string | null;
  referrer_policy: string | null;
  permissions_policy: PermissionsPolicy;
  cross_origin_opener_policy: string | null;
  cross_origin_embedder_policy: string | null;
  cross_origin_resource_policy: string | null;
  x_xss_protection: string | null;
  deprecated: string[];
  server: string | null;
  x_powered_by: string | null;
  disclosure: string[];
}

export interface Cookie {
  name: string;
  url: string;
  over_https: boolean;
  on_final_response: boolean;
  secure: boolean;
  http_only: boolean;
  same_site: string | null;
  domain: string | null;
  path: string | null;
  expires: string | null;
  max_age: number | null;
  /** Seconds from observed_at to expiry; null for a session cookie. */
  lifetime_s: number | null;
  prefix: string | null;
  session_like: boolean;
}

export interface CookiesFacet {
  count: number;
  items: Cookie[];
}

export interface CorsFacet {
  origin_sent: string;
  status: number | null;
  error: string | null;
  acao: string | null;
  acac: string | null;
  vary_origin: boolean | null;
  null_origin_status: number | null;
  null_origin_acao: string | null;
  null_origin_acac: string | null;
}

export interface JsonLd {
  blocks: number;
  parse_errors: string[];
  types: string[];
  nodes: number;
  untyped_nodes: number;
  schema_org_context: boolean | null;
  identity: { type: string; name: string | null; url: string | null; logo: boolean; same_as: number } | null;
  /** A JSON-LD node's name or headline appears in the title, a heading or og:title. */
  name_visible: boolean | null;
}

export interface HtmlFacet {
  parsed: boolean;
  document_mode: string | null;
  lang: string | null;
  title: string | null;
  title_count: number;
  meta_description: string | null;
  meta_charset: string | null;
  viewport: string | null;
  robots: string | null;
  canonical: string[];
  canonical_url: string | null;
  canonical_absolute: boolean | null;
  open_graph: Record<string, string>;
  twitter: Record<string, string>;
  json_ld: JsonLd;
  h1_count: number;
  h1_nonempty_count: number;
  text_chars: number;
  noscript_text_chars: number;
  word_count: number;
  html_bytes: number;
  script_count: number;
  external_scripts: number;
  external_scripts_without_integrity: number;
  body_elements: number;
  mount_point: string | null;
  mount_point_empty: boolean | null;
  alternates: { type: string | null; href: string }[];
  markdown_alternate: string | null;
  llms_link: string | null;
  feeds: string[];
  landmarks: { main: number; nav: number };
  images: number;
  images_without_alt: number;
  controls: number;
  controls_unnamed: number;
  insecure_subresources: string[];
  csp_meta: string[];
}

export interface FetchedDocument {
  url: string | null;
  status: number | null;
  error: string | null;
  content_type: string | null;
  vary: string[];
  looks_like_html: boolean | null;
  body_bytes: number | null;
  markdown_tokens: string | null;
}

export interface MarkdownFacet {
  negotiated: FetchedDocument;
  index_md: FetchedDocument;
  alternate: FetchedDocument;
}

export interface NotFoundFacet {
  path: string;
  first_status: number | null;
  status: number | null;
  error: string | null;
  redirects: number;
  content_type: string | null;
  redirected_to_root: boolean | null;
  same_body_as_root: boolean | null;
}

export interface MethodsFacet {
  options_status: number | null;
  error: string | null;
  allow: string[];
}

export interface TimingFacet {
  samples_ms: number[];
  median_ttfb_ms: number | null;
}

export interface CanonicalFacet {
  url: string | null;
  same_site: boolean | null;
  fetched: boolean;
  status: number | null;
  redirects: number | null;
  error: string | null;
}

export interface HttpObservations {
  redirect?: Chain;
  www?: Chain;
  response?: ResponseFacet;
  security_headers?: SecurityHeadersFacet;
  cookies?: CookiesFacet;
  cors?: CorsFacet;
  html?: HtmlFacet;
  markdown?: MarkdownFacet;
  not_found?: NotFoundFacet;
  methods?: MethodsFacet;
  timing?: TimingFacet;
  canonical?: CanonicalFacet;
}
