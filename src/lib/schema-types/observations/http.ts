// Generated from schemas/observations/http.json by `npm run types`; edit the schema, not this file.

export type Strings = string[];

/**
 * How the domain answers over HTTP and HTTPS (plugins/http). Each top-level property is a facet, collected only when a rule of the run reads it. Header names are lower-cased; a fact absent on the domain is null; a network failure is an error code (src/net NetErrorCode), never an exception.
 */
export interface HttpObservations {
  redirect?: Chain;
  www?: Chain;
  /**
   * GET https://<domain>/ as a browser navigation (Accept text/html, compression offered), followed hop by hop; the facts are those of the final response.
   */
  response?: {
    chain: Chain;
    status: number | null;
    /**
     * Final response headers, names lower-cased, repeated headers comma-joined; set-cookie is in the cookies facet.
     */
    headers: {
      [k: string]: string | undefined;
    };
    /**
     * Media type, lower-cased, without parameters.
     */
    content_type: string | null;
    /**
     * The charset parameter of Content-Type, lower-cased.
     */
    charset: string | null;
    /**
     * Content-Encoding the server applied when br and gzip were offered.
     */
    content_encoding: string | null;
    /**
     * Decoded body size (capped by the network limit).
     */
    body_bytes: number | null;
    /**
     * Body bytes received before decoding.
     */
    wire_bytes: number | null;
    body_sha256: string | null;
    /**
     * The body was cut at the network layer's byte limit.
     */
    truncated: boolean | null;
    http_version: string | null;
    /**
     * Time to first byte of the final response (a timing fact).
     */
    ttfb_ms: number | null;
    /**
     * The Date header as ISO 8601 UTC.
     */
    date: string | null;
    cache_control: {
      raw: string;
      directives: Strings;
      max_age: number | null;
    } | null;
    vary: Strings;
    alt_svc: Strings;
    x_robots_tag: string | null;
  };
  /**
   * Security-relevant headers of the final home page response, parsed.
   */
  security_headers?: {
    /**
     * Strict-Transport-Security (RFC 6797). Directives are read from the first value, as browsers do.
     */
    hsts: {
      /**
       * Each header value sent (the field has no commas, so a comma separates repeated headers).
       */
      values: string[];
      count: number;
      max_age: number | null;
      include_subdomains: boolean;
      preload: boolean;
      duplicate_directives: Strings;
      parse_errors: string[];
      /**
       * The first HTTPS response is a redirect and carries HSTS; null when it is not a redirect.
       */
      on_first_redirect: boolean | null;
    };
    csp: {
      /**
       * Enforced policies from Content-Security-Policy headers.
       */
      policies: CspPolicy[];
      /**
       * Policies from Content-Security-Policy-Report-Only.
       */
      report_only: CspPolicy[];
    };
    /**
     * First token, lower-cased.
     */
    x_content_type_options: string | null;
    /**
     * Lower-cased; identical repeated values collapse to one.
     */
    x_frame_options: string | null;
    /**
     * The policy a browser applies (last recognised token).
     */
    referrer_policy: string | null;
    permissions_policy: {
      raw: string | null;
      features: Strings;
      parse_error: string | null;
    };
    cross_origin_opener_policy: string | null;
    cross_origin_embedder_policy: string | null;
    cross_origin_resource_policy: string | null;
    x_xss_protection: string | null;
    deprecated: Strings;
    server: string | null;
    x_powered_by: string | null;
    disclosure: Strings;
  };
  /**
   * Cookies set by the responses of the home page fetch, every hop included.
   */
  cookies?: {
    count: number;
    items: Cookie[];
  };
  /**
   * CORS headers of the home page for a foreign Origin (derived from the domain) and for Origin: null.
   */
  cors?: {
    origin_sent: string;
    status: number | null;
    error: string | null;
    /**
     * Access-Control-Allow-Origin.
     */
    acao: string | null;
    /**
     * Access-Control-Allow-Credentials, lower-cased.
     */
    acac: string | null;
    vary_origin: boolean | null;
    null_origin_status: number | null;
    null_origin_acao: string | null;
    null_origin_acac: string | null;
  };
  /**
   * The home page parsed with parse5 (scripting off: what a fetcher without JavaScript gets). parsed is false when the final response is not HTML.
   */
  html?: {
    parsed: boolean;
    document_mode: 'no-quirks' | 'quirks' | 'limited-quirks' | null;
    lang: string | null;
    /**
     * Text of the first <title>, whitespace collapsed.
     */
    title: string | null;
    title_count: number;
    meta_description: string | null;
    meta_charset: string | null;
    viewport: string | null;
    /**
     * Content of meta name=robots, lower-cased (several joined with ', ').
     */
    robots: string | null;
    /**
     * href of each link rel=canonical, as written.
     */
    canonical: string[];
    /**
     * The first canonical href resolved against the page URL.
     */
    canonical_url: string | null;
    /**
     * The first canonical href is written as an absolute http(s) URL.
     */
    canonical_absolute: boolean | null;
    /**
     * og:* properties to their first content.
     */
    open_graph: {
      [k: string]: string | undefined;
    };
    /**
     * twitter:* names to their first content.
     */
    twitter: {
      [k: string]: string | undefined;
    };
    json_ld: JsonLd;
    h1_count: number;
    h1_nonempty_count: number;
    /**
     * Characters of body text (script, style and template removed, noscript kept), whitespace collapsed.
     */
    text_chars: number;
    /**
     * The part of text_chars inside <noscript>.
     */
    noscript_text_chars: number;
    word_count: number;
    /**
     * Decoded size of the HTML body.
     */
    html_bytes: number;
    /**
     * <script> elements other than JSON-LD data blocks.
     */
    script_count: number;
    /**
     * Scripts loaded from another origin.
     */
    external_scripts: number;
    external_scripts_without_integrity: number;
    /**
     * Elements in <body> other than script, style, template, noscript (and its content), link and meta.
     */
    body_elements: number;
    /**
     * id of the first well-known app mount element in the body (root, app, __next, __nuxt, ___gatsby).
     */
    mount_point: string | null;
    /**
     * The mount element holds no text and no elements but scripts.
     */
    mount_point_empty: boolean | null;
    /**
     * link rel=alternate, resolved, sorted by href.
     */
    alternates: {
      type: string | null;
      href: string;
    }[];
    /**
     * The first alternate of type text/markdown.
     */
    markdown_alternate: string | null;
    /**
     * A <link> to llms.txt (rel mentioning llms or href ending in /llms.txt).
     */
    llms_link: string | null;
    feeds: Strings;
    landmarks: {
      /**
       * <main> or role=main elements.
       */
      main: number;
      /**
       * <nav> or role=navigation elements.
       */
      nav: number;
    };
    images: number;
    /**
     * <img> without an alt attribute (alt="" marks a decorative image and counts as present).
     */
    images_without_alt: number;
    /**
     * input (not hidden), select, textarea and button elements.
     */
    controls: number;
    /**
     * Controls with no label, aria-label(ledby), title, placeholder or text.
     */
    controls_unnamed: number;
    insecure_subresources: Strings;
    /**
     * Content of meta http-equiv=Content-Security-Policy.
     */
    csp_meta: string[];
  };
  /**
   * Markdown for agents: GET / with Accept: text/markdown, GET /index.md, and the advertised markdown alternate.
   */
  markdown?: {
    negotiated: Document;
    index_md: Document;
    alternate: Document;
  };
  /**
   * GET of a path derived from the domain that no site serves (redirects followed).
   */
  not_found?: {
    path: string;
    first_status: number | null;
    status: number | null;
    error: string | null;
    redirects: number;
    content_type: string | null;
    redirected_to_root: boolean | null;
    /**
     * The body is byte-identical to the home page's.
     */
    same_body_as_root: boolean | null;
  };
  /**
   * OPTIONS / and the Allow header it returns.
   */
  methods?: {
    options_status: number | null;
    error: string | null;
    allow: Strings;
  };
  /**
   * Time to first byte of the home page over three sequential requests (timing facts; they vary between scans).
   */
  timing?: {
    samples_ms: number[];
    median_ttfb_ms: number | null;
  };
  /**
   * The canonical URL the home page declares, fetched when it is on the same registrable domain.
   */
  canonical?: {
    url: string | null;
    same_site: boolean | null;
    fetched: boolean;
    status: number | null;
    redirects: number | null;
    error: string | null;
  };
}
export interface Chain {
  /**
   * The URL the chain started from.
   */
  url: string;
  /**
   * The network error that stopped the chain (NetErrorCode, or too_many_redirects after 10 redirects).
   */
  error: string | null;
  hops: Hop[];
  redirects: number;
  /**
   * A Location pointed back to a URL already requested.
   */
  loop: boolean;
  /**
   * Some hop went from an https: URL to an http: URL.
   */
  downgrade: boolean;
  first_status: number | null;
  first_location: string | null;
  first_location_scheme: string | null;
  /**
   * The first Location names the host that was requested.
   */
  first_location_same_host: boolean | null;
  /**
   * URL of the last response received.
   */
  final_url: string | null;
  final_scheme: string | null;
  final_host: string | null;
  final_status: number | null;
}
export interface Hop {
  url: string;
  status: number;
  /**
   * Location resolved against the hop's URL.
   */
  location: string | null;
  /**
   * HSTS value on an HTTPS hop.
   */
  strict_transport_security: string | null;
}
export interface CspPolicy {
  raw: string;
  /**
   * Directive name to its source list (keywords lower-cased); a repeated directive keeps its first value.
   */
  directives: {
    [k: string]: Strings | undefined;
  };
  duplicate_directives: Strings;
  unknown_directives: Strings;
  /**
   * Effective script sources (script-src, else default-src); null when neither is set.
   */
  script_src: string[] | null;
  /**
   * Effective object sources (object-src, else default-src).
   */
  object_src: string[] | null;
  /**
   * Inline scripts run: no script restriction, or 'unsafe-inline' not neutralised by a nonce, hash or 'strict-dynamic'.
   */
  script_unsafe_inline: boolean;
  /**
   * eval runs: no script restriction, or 'unsafe-eval'.
   */
  script_unsafe_eval: boolean;
  /**
   * Scripts may load from data: URLs.
   */
  script_data: boolean;
  /**
   * Scripts may load from any host: no restriction, *, http:, https: (unless 'strict-dynamic').
   */
  script_wildcard: boolean;
  /**
   * The effective object sources are exactly 'none'.
   */
  object_none: boolean;
  insecure_sources: Strings;
  frame_ancestors: string[] | null;
  base_uri: string[] | null;
  form_action: string[] | null;
  /**
   * report-uri or report-to is set.
   */
  reporting: boolean;
}
export interface Cookie {
  name: string;
  /**
   * The URL whose response set the cookie.
   */
  url: string;
  over_https: boolean;
  on_final_response: boolean;
  secure: boolean;
  http_only: boolean;
  /**
   * SameSite value, lower-cased.
   */
  same_site: string | null;
  domain: string | null;
  path: string | null;
  expires: string | null;
  max_age: number | null;
  /**
   * Seconds from observed_at to expiry (Max-Age wins over Expires); null for a session cookie.
   */
  lifetime_s: number | null;
  prefix: '__Host-' | '__Secure-' | null;
  /**
   * The name matches common session or login cookie names (heuristic, list version 1).
   */
  session_like: boolean;
}
export interface JsonLd {
  /**
   * <script type=application/ld+json> elements.
   */
  blocks: number;
  parse_errors: string[];
  types: Strings;
  nodes: number;
  untyped_nodes: number;
  /**
   * Every parsed block's @context is schema.org; null when none parsed.
   */
  schema_org_context: boolean | null;
  /**
   * The first Organization-like, else Person, else WebSite node.
   */
  identity: {
    type: string;
    name: string | null;
    url: string | null;
    logo: boolean;
    same_as: number;
  } | null;
  /**
   * A node's name or headline appears in the title, an h1 or og:title; null when no node has one.
   */
  name_visible: boolean | null;
}
export interface Document {
  url: string | null;
  status: number | null;
  error: string | null;
  content_type: string | null;
  vary: Strings;
  /**
   * The body starts like an HTML document.
   */
  looks_like_html: boolean | null;
  body_bytes: number | null;
  /**
   * The x-markdown-tokens header (an estimate some servers send with markdown).
   */
  markdown_tokens: string | null;
}
