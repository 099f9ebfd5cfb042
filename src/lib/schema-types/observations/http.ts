// Generated from schemas/observations/http.json by `npm run types`; edit the schema, not this file.

import type { Excerpt } from './wellknown.ts';

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
    /**
     * HTTP status of the final response.
     */
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
     * The Date header as ISO 8601 UTC, read as an HTTP-date (RFC 9110 section 5.6.7: IMF-fixdate or one of the two obsolete forms); null when absent or not an HTTP-date.
     */
    date: string | null;
    /**
     * Cache-Control (RFC 9111 section 5.2); null when absent.
     */
    cache_control: {
      raw: string;
      directives: Strings;
      /**
       * The first max-age argument (delta-seconds; the quoted form is accepted, RFC 9111 section 5.2).
       */
      max_age: number | null;
      parse_errors: Strings;
    } | null;
    vary: Strings;
    alt_svc: Strings;
    /**
     * The X-Robots-Tag header of the final response, as sent; null when absent.
     */
    x_robots_tag: string | null;
    /**
     * Why the Alt-Svc value breaks the RFC 7838 grammar (naming the production); null when it parses or is absent.
     */
    alt_svc_error: string | null;
  };
  /**
   * Security-relevant headers of the final home page response, parsed.
   */
  security_headers?: {
    /**
     * Strict-Transport-Security (RFC 6797 section 6.1). A UA processes only the first header (section 8.1) and ignores it whole when it breaks the grammar, repeats a directive or lacks a valid max-age; max_age, include_subdomains and preload are what is in force, so they are null and false for an invalid header.
     */
    hsts: {
      /**
       * Each Strict-Transport-Security field line sent, in order (a comma does not separate headers: the field is not a list).
       */
      values: string[];
      /**
       * Number of Strict-Transport-Security headers sent.
       */
      count: number;
      /**
       * The first value conforms to RFC 6797 section 6.1 (directive grammar, no repeated directive, a delta-seconds max-age, includeSubDomains without a value): a UA applies it.
       */
      valid: boolean;
      /**
       * max-age in force (seconds; values past 2^53 are kept at the largest safe integer); null when the header is absent or invalid.
       */
      max_age: number | null;
      /**
       * includeSubDomains is in force.
       */
      include_subdomains: boolean;
      /**
       * The header is valid and carries preload as a bare directive (hstspreload.org; not an RFC 6797 directive).
       */
      preload: boolean;
      duplicate_directives: Strings;
      parse_errors: Strings;
      /**
       * When the first HTTPS response of the home page fetch is a redirect: whether it carries a valid Strict-Transport-Security header (RFC 6797 section 6.1); null when it is not a redirect.
       */
      on_first_redirect: boolean | null;
    };
    /**
     * Content-Security-Policy and Content-Security-Policy-Report-Only, each parsed as a serialized CSP list (CSP Level 3 section 2.2.2).
     */
    csp: {
      /**
       * Enforced policies, from Content-Security-Policy headers (a policy with no directives is dropped, as browsers do).
       */
      policies: CspPolicy[];
      /**
       * Policies from Content-Security-Policy-Report-Only: browsers only report what they would block, so these never count as enforcement.
       */
      report_only: CspPolicy[];
    };
    /**
     * X-Content-Type-Options as Fetch reads it ("determine nosniff"): the first comma-separated member, lower-cased; nosniff only when that member is exactly nosniff.
     */
    x_content_type_options: string | null;
    /**
     * X-Frame-Options (HTML section 7.1.7): the set of comma-separated values, lower-cased; a single value alone, several joined with ", " (browsers then ignore or block, never apply one).
     */
    x_frame_options: string | null;
    /**
     * The policy a browser applies (W3C Referrer Policy section 8.1): the last known policy token; null when none, or when the value is not a list of tokens.
     */
    referrer_policy: string | null;
    /**
     * Permissions-Policy (W3C Permissions Policy), a Structured Fields dictionary (RFC 9651).
     */
    permissions_policy: {
      /**
       * The Permissions-Policy header as sent; null when absent.
       */
      raw: string | null;
      features: Strings;
      /**
       * Why the value is not a Structured Fields dictionary (browsers then ignore all of it); null when it parses.
       */
      parse_error: string | null;
    };
    /**
     * Cross-Origin-Opener-Policy (HTML section 7.1.3): the token of the Structured Fields item, parameters dropped; null when absent or not a token item (browsers then apply unsafe-none).
     */
    cross_origin_opener_policy: string | null;
    /**
     * Cross-Origin-Embedder-Policy (HTML section 7.1.4): the token of the Structured Fields item, parameters dropped; null when absent or not a token item.
     */
    cross_origin_embedder_policy: string | null;
    /**
     * Cross-Origin-Resource-Policy (Fetch section 3.8): same-origin, same-site or cross-origin, matched case-sensitively; null when absent or anything else (browsers ignore it).
     */
    cross_origin_resource_policy: string | null;
    /**
     * X-XSS-Protection as sent, trimmed.
     */
    x_xss_protection: string | null;
    deprecated: Strings;
    /**
     * Server (RFC 9110 section 10.2.4): product *( RWS ( product / comment ) ).
     */
    server: {
      /**
       * The header as sent; null when absent.
       */
      raw: string | null;
      /**
       * The products in order: name and the product-version after "/" (section 10.1.5), null when none. Digits in a name or a comment are not a version.
       */
      products: {
        name: string;
        version: string | null;
      }[];
      comments: Strings;
      /**
       * Where the value breaks the grammar, naming the production; products and comments read before it are kept.
       */
      parse_error: string | null;
    };
    /**
     * X-Powered-By as sent.
     */
    x_powered_by: string | null;
    disclosure: Strings;
    /**
     * Reporting-Endpoints (W3C Reporting API section 3.2): a Structured Fields dictionary of endpoint names to URL strings.
     */
    reporting_endpoints: {
      /**
       * The Reporting-Endpoints header as sent; null when absent.
       */
      raw: string | null;
      /**
       * Why the value is not a Structured Fields dictionary (browsers then ignore the header); null when it parses or is absent.
       */
      parse_error: string | null;
      /**
       * Each member in order: its name and its URL resolved against the page URL (null when the value is not a string or not a URL).
       */
      endpoints: {
        name: string;
        url: string | null;
      }[];
    };
    /**
     * Report-To (the 2018 W3C Reporting API draft, section 3.1; still read by Chromium for NEL): JSON endpoint groups, comma-separated without the outer brackets.
     */
    report_to: {
      /**
       * The Report-To header as sent; null when absent.
       */
      raw: string | null;
      /**
       * Why the value is not a list of JSON objects; null when it parses or is absent.
       */
      parse_error: string | null;
      /**
       * The Report-To header's endpoint groups, parsed as JSON objects (the legacy Reporting API).
       */
      groups: {
        /**
         * The group member, "default" when absent.
         */
        name: string;
        /**
         * A non-negative integer max_age; null when missing or of the wrong type (the group is then unusable).
         */
        max_age: number | null;
        include_subdomains: boolean;
        endpoints: Strings;
      }[];
    };
    /**
     * NEL (W3C Network Error Logging section 3.1): JSON policies without the outer brackets; a UA applies the first.
     */
    nel: {
      /**
       * The NEL header (Network Error Logging) as sent; null when absent.
       */
      raw: string | null;
      /**
       * Why the value is not a list of JSON objects; null when it parses or is absent.
       */
      parse_error: string | null;
      /**
       * The Report-To group reports go to; null when missing or not a string.
       */
      report_to: string | null;
      /**
       * A non-negative integer max_age; null when missing or of the wrong type (the policy is then ignored).
       */
      max_age: number | null;
      include_subdomains: boolean;
      /**
       * Sampling rate of successful requests, 0 when missing or out of [0, 1].
       */
      success_fraction: number;
      /**
       * Sampling rate of failed requests, 1 when missing or out of [0, 1].
       */
      failure_fraction: number;
    };
  };
  /**
   * Cookies set by the responses of the home page fetch, every hop included.
   */
  cookies?: {
    /**
     * Number of Set-Cookie headers on the final home page response.
     */
    count: number;
    /**
     * Each Set-Cookie header parsed per RFC 6265 section 5.2 (with RFC 6265bis attributes).
     */
    items: Cookie[];
  };
  /**
   * CORS headers of the home page for a foreign Origin (derived from the domain) and for Origin: null.
   */
  cors?: {
    /**
     * The foreign origin the probe sent in the Origin header.
     */
    origin_sent: string;
    /**
     * HTTP status of the home page requested with the foreign Origin; null when the request failed.
     */
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
    /**
     * HTTP status of the home page requested with Origin: null; null when the request failed.
     */
    null_origin_status: number | null;
    /**
     * Access-Control-Allow-Origin answered to a request with Origin: null (sandboxed documents and file: pages send it); null when absent.
     */
    null_origin_acao: string | null;
    /**
     * Access-Control-Allow-Credentials (lower-cased) answered to a request with Origin: null; null when absent.
     */
    null_origin_acac: string | null;
  };
  /**
   * The home page parsed with parse5 (scripting off: what a fetcher without JavaScript gets). parsed is false when the final response is not HTML.
   */
  html?: {
    /**
     * The body was parsed as HTML (an HTML media type, within the size limit).
     */
    parsed: boolean;
    /**
     * The document mode the HTML parser chose from the doctype (WHATWG HTML 13.2.6.4.1): quirks mode changes layout; null when no HTML was parsed.
     */
    document_mode: 'no-quirks' | 'quirks' | 'limited-quirks' | null;
    /**
     * The lang attribute of the <html> element; null when absent.
     */
    lang: string | null;
    /**
     * Text of the first <title>, whitespace collapsed.
     */
    title: string | null;
    /**
     * Number of <title> elements in the page.
     */
    title_count: number;
    /**
     * The content of <meta name="description">; null when absent.
     */
    meta_description: string | null;
    /**
     * The character encoding the page declares in <meta charset> or its http-equiv form; null when none.
     */
    meta_charset: string | null;
    /**
     * The content of <meta name="viewport">; null when absent.
     */
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
    /**
     * Number of <h1> elements in the page.
     */
    h1_count: number;
    /**
     * Number of <h1> elements with text content.
     */
    h1_nonempty_count: number;
    /**
     * Characters of body text (script, style and template removed, noscript kept), whitespace collapsed.
     */
    text_chars: number;
    /**
     * The part of text_chars inside <noscript>.
     */
    noscript_text_chars: number;
    /**
     * Number of words of text in the page's body as served, without running scripts.
     */
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
    /**
     * Number of <script src> elements loading from another origin without an integrity attribute (Subresource Integrity).
     */
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
    /**
     * Number of <img> elements in the page.
     */
    images: number;
    /**
     * <img> without an alt attribute (alt="" marks a decorative image and counts as present).
     */
    images_without_alt: number;
    /**
     * Rendered form controls: input (not type=hidden), select, textarea and button elements, leaving out those a static parse knows are not rendered or not exposed to assistive technology: in or under an element with the hidden attribute, aria-hidden="true", an inline style display:none or visibility:hidden, or a closed <dialog>, and those inside <template>. Stylesheets and scripts are not run, so controls hidden by them still count.
     */
    controls: number;
    /**
     * Rendered controls with no accessible name as HTML-AAM computes it from markup: aria-labelledby naming an element with text, aria-label, a <label> (wrapping, or for=id) with text, title, placeholder, a button's text, the default label of submit and reset buttons, value of a button input, alt of an image input.
     */
    controls_unnamed: number;
    insecure_subresources: Strings;
    /**
     * Content of meta http-equiv=Content-Security-Policy.
     */
    csp_meta: string[];
    /**
     * Form controls left out of controls because they are not rendered (see controls).
     */
    controls_not_rendered: number;
    /**
     * WebMCP declarative tools (W3C Web Machine Learning CG draft; Chrome's declarative API): each <form> with a toolname attribute, outside <template> and <noscript>, is a tool an agent can call, and its named fields are the tool's parameters. A static parse sees only these: tools a script registers through navigator.modelContext (the imperative API), and attributes a script adds or changes, are not visible.
     */
    webmcp?: {
      /**
       * Forms with a toolname attribute.
       */
      tools_count: number;
      /**
       * The first 50 tools in document order.
       *
       * @maxItems 50
       */
      tools: {
        /**
         * The form's toolname attribute, as written (a tool name is 1 to 128 ASCII letters, digits, _, - and .: WebMCP draft, tool definition).
         */
        name: string;
        /**
         * The form's tooldescription attribute, white space collapsed; null when the attribute is absent. Without a description the browser does not register the tool.
         */
        description: string | null;
        /**
         * The tool's parameters: the distinct names of the form's fields (input other than hidden, submit, reset, button and image; select; textarea), inside the form or naming it with form=, that carry a name attribute.
         */
        params_count: number;
        /**
         * The first 50 parameters in document order.
         *
         * @maxItems 50
         */
        params: {
          /**
           * The field's name attribute: the parameter's property name in the tool's input schema.
           */
          name: string;
          /**
           * Where the browser takes the parameter's description from, in Chrome's order: the toolparamdescription attribute, else the text of the field's <label> (for=id or wrapping, without the text of fields inside it), else aria-description; null when none has text. Fields sharing a name (radio buttons) take the first that has one.
           */
          description_source: 'toolparamdescription' | 'label' | 'aria-description' | null;
          /**
           * The field's toolparamtitle attribute, white space collapsed (the parameter's title in the input schema); null when absent or blank.
           */
          title: string | null;
        }[];
      }[];
      /**
       * Tool names declared by more than one form, sorted: a page's tools are kept in one map keyed by name, and registering a second tool of a name already there is refused (WebMCP draft, registerTool).
       */
      duplicate_names: string[];
    };
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
    /**
     * HTTP status answered for a random path that cannot exist; a site without soft 404s answers 404 or 410.
     */
    status: number | null;
    /**
     * Why the request for a random path failed (a network-layer error code); null when it was answered.
     */
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
    /**
     * HTTP status of an OPTIONS request to the home page; null when the request failed.
     */
    options_status: number | null;
    error: string | null;
    allow: Strings;
  };
  /**
   * Time to first byte of the home page over three sequential requests (timing facts; they vary between scans).
   */
  timing?: {
    samples_ms: number[];
    /**
     * Median time to first byte of three sequential GETs of the home page, in milliseconds; null when none answered.
     */
    median_ttfb_ms: number | null;
  };
  /**
   * The canonical URL the home page declares, fetched when it is on the same registrable domain.
   */
  canonical?: {
    /**
     * The URL of the page's <link rel="canonical"> (RFC 6596), resolved against the page; null when none.
     */
    url: string | null;
    /**
     * The canonical URL is http(s) on the scanned registrable domain; only then is it fetched. Null when the page declares none.
     */
    same_site: boolean | null;
    fetched: boolean;
    /**
     * Final HTTP status of the canonical URL; null when it was not fetched or the fetch failed.
     */
    status: number | null;
    /**
     * Redirects followed when fetching the canonical URL; null when it was not fetched.
     */
    redirects: number | null;
    error: string | null;
  };
  /**
   * The web application manifest the home page links: the first <link rel="manifest"> in tree order (HTML section 4.6.7), fetched when it is on the scanned site, and read by the W3C Web Application Manifest's steps for processing a manifest (plugins/http/parse-manifest.ts).
   */
  manifest?: {
    /**
     * The manifest URL: the link's href resolved against the page URL; null when the page links no manifest (or its href is empty or does not parse).
     */
    link: string | null;
    /**
     * The manifest URL is http(s) on the scanned domain or one of its subdomains; only then is it fetched. Null when no manifest is linked.
     */
    on_site: boolean | null;
    /**
     * The site publishes the manifest: the final answer is 2xx with a non-empty body that is neither an HTML page nor the site's answer for a path that does not exist. Null when it was not fetched.
     */
    published: boolean | null;
    /**
     * The response facts of the manifest fetch; null when it was not fetched.
     */
    document: FetchedDocument | null;
    /**
     * How the body parses as JSON (UTF-8, a BOM dropped): object, not_object (JSON, but not an object) or not_json. The processing steps read anything but an object as an empty manifest. Null when the manifest was not published.
     */
    json: 'object' | 'not_object' | 'not_json' | null;
    /**
     * The name member as processed (a string, leading and trailing ASCII whitespace stripped, at most 200 characters); null when absent, ignored, or not processed.
     */
    name: string | null;
    /**
     * The short_name member as processed, like name.
     */
    short_name: string | null;
    /**
     * The start URL after processing: the start_url member parsed against the manifest URL when it is a non-empty string on the page's origin, else the page URL. Null when not processed.
     */
    start_url: string | null;
    /**
     * The app's identity after processing: the id member parsed against the start URL's origin, same origin as it, fragment dropped; else the start URL. Null when not processed.
     */
    id: string | null;
    /**
     * The navigation scope after processing: the scope member parsed against the manifest URL, query and fragment dropped, when the start URL is within it; else the start URL's directory. Null when not processed.
     */
    scope: string | null;
    /**
     * The display mode after processing: the display member stripped and lower-cased when it is one of fullscreen, standalone, minimal-ui, browser; else browser. Null when not processed.
     */
    display: 'fullscreen' | 'standalone' | 'minimal-ui' | 'browser' | null;
    /**
     * The icons the processing keeps (at most the first 50 declared are read), in order.
     */
    icons: ManifestIcon[];
    /**
     * Items of the icons member when it is a list; null when it is absent or not a list.
     */
    icons_declared: number | null;
    /**
     * Every member, or icon member, the processing steps ignore, in processing order, with the step that ignored it.
     */
    ignored: ManifestIgnored[];
    excerpt: Excerpt;
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
  /**
   * Number of redirects followed.
   */
  redirects: number;
  /**
   * A Location pointed back to a URL already requested.
   */
  loop: boolean;
  /**
   * Some hop went from an https: URL to an http: URL.
   */
  downgrade: boolean;
  /**
   * HTTP status of the first response; null when the first request failed.
   */
  first_status: number | null;
  first_location: string | null;
  /**
   * Scheme of the first redirect's Location; null when the first response did not redirect.
   */
  first_location_scheme: string | null;
  /**
   * The first Location names the host that was requested.
   */
  first_location_same_host: boolean | null;
  /**
   * URL of the last response received.
   */
  final_url: string | null;
  /**
   * Scheme (http or https) of the last URL of the redirect chain.
   */
  final_scheme: string | null;
  /**
   * Host name of the last URL of the redirect chain.
   */
  final_host: string | null;
  /**
   * HTTP status of the last response of the chain; null when it failed.
   */
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
   * The first Strict-Transport-Security field line on an HTTPS hop (RFC 6797 section 8.1: a UA processes only the first).
   */
  strict_transport_security: string | null;
}
/**
 * One policy, read with "parse a serialized CSP" (CSP Level 3 section 2.2.1).
 */
export interface CspPolicy {
  raw: string;
  /**
   * Directive name (lower-cased) to its value; a repeated directive keeps its first value (browsers ignore the rest). Source lists hold only the expressions that match the source-expression grammar, normalised (keywords, schemes and hosts lower-cased; nonce and hash values and paths keep their case).
   */
  directives: {
    [k: string]: Strings | undefined;
  };
  duplicate_directives: Strings;
  unknown_directives: Strings;
  syntax_errors: Strings;
  sources: Strings;
  enforced_sources: Strings;
  script_elem: CspEffective;
  script_attr: CspEffective;
  script: CspEffective;
  style_elem: CspEffective;
  style_attr: CspEffective;
  object: CspEffective;
  /**
   * The frame-ancestors source list; null when not set.
   */
  frame_ancestors: string[] | null;
  /**
   * The base-uri source list; null when not set.
   */
  base_uri: string[] | null;
  /**
   * The form-action source list; null when not set.
   */
  form_action: string[] | null;
  /**
   * The report-to value (an endpoint name from Reporting-Endpoints); null when not set.
   */
  report_to: string[] | null;
  /**
   * The report-uri URLs; null when not set.
   */
  report_uri: string[] | null;
}
export interface CspEffective {
  /**
   * The directive that governs this kind of content after the fallback list of CSP Level 3 section 6.8.3; null when none is set (nothing is restricted).
   */
  directive: string | null;
  sources: Strings;
  /**
   * Inline content of this kind runs: no directive governs, or the list allows all inline behaviour (section 6.7.3.3: 'unsafe-inline' with no valid nonce-source or hash-source and, for scripts, no 'strict-dynamic'). null for kinds that have no inline form.
   */
  inline_allowed: boolean | null;
}
/**
 * One Set-Cookie header read with the parsing algorithm of RFC 6265bis section 5.6; where an attribute repeats, the last valid one counts.
 */
export interface Cookie {
  name: string;
  /**
   * The URL whose response set the cookie.
   */
  url: string;
  over_https: boolean;
  on_final_response: boolean;
  /**
   * Why a browser ignores the whole Set-Cookie (a control character, name and value both empty, or over 4096 octets), naming the production; null when it is stored.
   */
  rejected: string | null;
  secure: boolean;
  http_only: boolean;
  /**
   * SameSite enforcement (RFC 6265bis section 5.6.7): none, strict or lax; default when the attribute has any other value; null when absent.
   */
  same_site: 'none' | 'strict' | 'lax' | 'default' | null;
  /**
   * The last non-empty Domain attribute, leading dot removed, lower-cased (an empty Domain is ignored, section 5.6.3); null when none.
   */
  domain: string | null;
  /**
   * The last Path attribute; a value that does not start with "/" becomes the request's default-path (section 5.6.4); null when none.
   */
  path: string | null;
  /**
   * The last Expires that parses with the cookie-date algorithm (RFC 6265 section 5.1.1), as ISO 8601 UTC; null when none does.
   */
  expires: string | null;
  /**
   * The last Max-Age of the form ["-"] 1*DIGIT (section 5.6.2), uncapped; null when none.
   */
  max_age: number | null;
  /**
   * Seconds from observed_at to expiry as the site asked (Max-Age wins over Expires), not capped at the 400 days browsers apply; null for a session cookie.
   */
  lifetime_s: number | null;
  /**
   * __Host- or __Secure- when the name starts with it (matched case-insensitively, as RFC 6265bis section 4.1.3 does).
   */
  prefix: '__Host-' | '__Secure-' | null;
}
export interface JsonLd {
  /**
   * <script type=application/ld+json> elements.
   */
  blocks: number;
  /**
   * JSON syntax errors of the JSON-LD blocks, one per block that is not valid JSON.
   */
  parse_errors: string[];
  types: Strings;
  /**
   * Number of JSON-LD nodes in the page's <script type="application/ld+json"> blocks (top-level items and @graph members).
   */
  nodes: number;
  /**
   * Number of JSON-LD nodes without an @type.
   */
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
    /**
     * The name of the identity node (Organization, Person or WebSite), as published.
     */
    name: string | null;
    /**
     * The url of the identity node, as published.
     */
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
  /**
   * The URL requested.
   */
  url: string | null;
  /**
   * Final HTTP status; null when the request was not made or failed.
   */
  status: number | null;
  /**
   * Why the document could not be fetched: a network-layer error code, or off_site for a URL outside the scanned site; null when fetched.
   */
  error: string | null;
  /**
   * The media type of the response (Content-Type without parameters); null when none was received.
   */
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
/**
 * One fetched document: the response facts the wellknown and agents probes record for theirs (plugins/shared/fetch-document.ts).
 */
export interface FetchedDocument {
  /**
   * The URL requested.
   */
  url: string;
  /**
   * HTTP status of the final answer (after redirects, where the document's readers follow them); null when no answer came.
   */
  status: number | null;
  /**
   * Media type of Content-Type, lower-cased, without parameters.
   */
  content_type: string | null;
  /**
   * The charset parameter of Content-Type, lower-cased.
   */
  charset: string | null;
  /**
   * Body bytes received (decoded), up to the cap.
   */
  bytes: number | null;
  /**
   * The body was cut at the probe's size cap.
   */
  truncated: boolean;
  /**
   * The final URL when redirects were followed, else null.
   */
  redirected_to: string | null;
  /**
   * Redirects followed.
   */
  redirects: number;
  /**
   * Why no answer came (a network error code such as timeout, tls_error, connect_refused).
   */
  error: string | null;
  /**
   * The body starts as an HTML page (a doctype, html, head or body tag after whitespace, an XML declaration or comments; WHATWG MIME Sniffing section 7.1, page-level patterns only); null when no answer came.
   */
  body_is_html: boolean | null;
  /**
   * The answer is 2xx and its body equals the site's 2xx body for a path that does not exist; null when that comparison could not be made.
   */
  soft_404: boolean | null;
  /**
   * Access-Control-Allow-Origin of the answer to a request that carried an Origin header; null when absent.
   */
  access_control_allow_origin: string | null;
}
export interface ManifestIcon {
  /**
   * The icon's URL, its src parsed against the manifest URL.
   */
  src: string;
  /**
   * The sizes tokens (any, or WxH), lower-cased; null when the member is absent or empty.
   */
  sizes: string[] | null;
  /**
   * The essence of the type member's MIME type; null when absent or empty.
   */
  type: string | null;
  /**
   * The known purposes (monochrome, maskable, any) the purpose member names; any when it names none.
   */
  purpose: ('monochrome' | 'maskable' | 'any')[];
}
export interface ManifestIgnored {
  /**
   * The member ignored: name, short_name, start_url, id, scope, display, icons, or icons[i] and icons[i].src, .sizes, .type, .purpose for one icon (which is then dropped).
   */
  member: string;
  /**
   * The processing step that ignored it: not_string, empty, unparsable (the URL parser fails), cross_origin (start_url not on the page's origin, id not on start_url's), start_url_outside (the start URL is not within the scope), unknown_mode (display), not_list (icons), not_object (an icon), invalid_sizes, invalid_mime_type, unknown_purpose.
   */
  reason:
    | 'not_string'
    | 'empty'
    | 'unparsable'
    | 'cross_origin'
    | 'start_url_outside'
    | 'unknown_mode'
    | 'not_list'
    | 'not_object'
    | 'invalid_sizes'
    | 'invalid_mime_type'
    | 'unknown_purpose';
  /**
   * The value as written (JSON for a non-string), at most 200 characters; null when the member is absent.
   */
  value: string | null;
}
