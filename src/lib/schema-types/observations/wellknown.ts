// Generated from schemas/observations/wellknown.json by `npm run types`; edit the schema, not this file.

/**
 * The site publishes this document: the final answer is 2xx with a non-empty body that is neither an HTML page (document.body_is_html) nor the site's answer for a path that does not exist (document.soft_404; an unknown comparison does not count against it). Rules about a document's content apply only when it is published.
 */
export type Published = boolean;
export type Decision = 'allow' | 'disallow';
/**
 * The lines of the document its facts point at, as sent, for a report to show beside a finding (rules do not read them): at most 16 lines, at most 4 of them first named by any one fact, each cut to 200 characters, in line order. The facets name the lines in this order and keep the first that fit: robots.txt the lines that break the grammar, the rules that disallow a probed path with the first line of their group, the Sitemap records, the groups, the unknown records; security.txt the lines that break the grammar, Expires, http: URIs, unknown fields, then every field; llms.txt the lines that break the outline, the H1 headings, then http:, relative and non-markdown links; the first sitemap the line where its XML stops being well-formed, a root element that is not a sitemap's, the entries without a loc, the locs that are invalid, off the host or name a sitemap in a urlset, the invalid lastmods, or a text sitemap's lines that are no valid URL; a JSON document of the agents probe the line where it stops being JSON (json_error), else the members its schema violations name (a missing required member: the opening line of the object that lacks it), the members a list fact names (non_https_endpoints, a key's private_members), then the members facts are read from (issuer, jwks_uri, skills_count, and members of another name such as an A2A card's capabilities.extensions); tdmrep.json the line where it stops being JSON, an opening line that is not an array's, the members its problems name (an absent member: its entry's opening line), then each entry's location; the web app manifest (http.manifest) the line where it stops being JSON or its opening line when it is not an object, the members the processing steps ignored, then the members its facts hold. Null when the document is not published (a sitemap: not parsed).
 *
 * @maxItems 16
 */
export type Excerpt =
  | {
      /**
       * 1-based, as the parser numbers lines.
       */
      line: number;
      /**
       * The line as sent, without its line break, at most 200 characters.
       */
      text: string;
      /**
       * The facet's facts that point at the line, as paths within the facet (parse_errors, expires, fields.contact, wildcard.root, access.GPTBot), sorted.
       *
       * @minItems 1
       */
      facts: [string, ...string[]];
    }[]
  | null;

/**
 * Files published at fixed paths for crawlers and agents: robots.txt, usage preferences, llms.txt, llms-full.txt, sitemap, security.txt, and the home page Link header.
 */
export interface WellknownObservations {
  robots?: {
    published: Published;
    document: Document;
    /**
     * RFC 9309 section 2.3.1: available (2xx), unavailable (4xx, or more than five redirects), unreachable (5xx or no response).
     */
    availability: 'available' | 'unavailable' | 'unreachable';
    /**
     * The file starts with a UTF-8 byte order mark.
     */
    bom: boolean | null;
    /**
     * The bytes within the parse limit are valid UTF-8.
     */
    utf8_valid: boolean | null;
    /**
     * Lines read within the 500 KiB parse limit.
     */
    lines: number | null;
    /**
     * key: value lines with a key the parser does not know.
     */
    unknown_lines: number | null;
    /**
     * Those keys, lower-cased, sorted.
     */
    unknown_keys: string[] | null;
    /**
     * Lines that break RFC 9309's record grammar, in line order, each with whether crawlers still read it (see code).
     */
    parse_errors:
      | {
          line: number;
          /**
           * missing_separator (no colon, and not the two words Google's parser reads with whitespace for the colon), rule_outside_group and invalid_path lose or change a rule (RFC 9309 section 2.2); the others break only the letter and the line is read: whitespace_separator (`Disallow /tmp`, which Google's parser reads as `Disallow: /tmp`), misspelt_key (a key Google's parser reads as the one it misspells: useragent, user agent, dissallow, dissalow, disalow, diasllow, disallaw, site-map), invalid_user_agent (outside the product-token grammar; crawlers match the value's leading token), invalid_crawl_delay (a record outside RFC 9309).
           */
          code:
            | 'missing_separator'
            | 'whitespace_separator'
            | 'misspelt_key'
            | 'rule_outside_group'
            | 'invalid_user_agent'
            | 'invalid_path'
            | 'invalid_crawl_delay';
          /**
           * The RFC 9309 ABNF production the line breaks (crawl-delay for that record).
           */
          production: string;
          /**
           * The line as written, comment removed, at most 200 characters.
           */
          value: string;
        }[]
      | null;
    /**
     * Groups in file order.
     */
    groups:
      | {
          line: number;
          /**
           * Product tokens, lower-cased; * for the fallback group.
           */
          user_agents: string[];
          allow_rules: number;
          disallow_rules: number;
          /**
           * The group's first Crawl-delay, seconds.
           */
          crawl_delay: number | null;
        }[]
      | null;
    /**
     * Sitemap record values as written, in file order.
     */
    sitemaps: string[] | null;
    /**
     * The path whose access the sitemap decisions report: the first declared same-host sitemap, else /sitemap.xml.
     */
    sitemap_path: string;
    /**
     * Access per AI crawler product token: the tokens vendors document for their crawlers and fetchers (plugins/wellknown/ai-crawlers.ts lists each with its source).
     */
    access: {
      GPTBot: PathAccess;
      'OAI-SearchBot': PathAccess;
      'ChatGPT-User': PathAccess;
      'OAI-AdsBot': PathAccess;
      ClaudeBot: PathAccess;
      'Claude-SearchBot': PathAccess;
      'Claude-User': PathAccess;
      'anthropic-ai': PathAccess;
      'Claude-Web': PathAccess;
      Googlebot: PathAccess;
      'Google-Extended': PathAccess;
      GoogleOther: PathAccess;
      'Google-CloudVertexBot': PathAccess;
      Bingbot: PathAccess;
      Applebot: PathAccess;
      'Applebot-Extended': PathAccess;
      PerplexityBot: PathAccess;
      'Perplexity-User': PathAccess;
      'Meta-ExternalAgent': PathAccess;
      'Meta-ExternalFetcher': PathAccess;
      FacebookBot: PathAccess;
      CCBot: PathAccess;
      Bytespider: PathAccess;
      Amazonbot: PathAccess;
      'MistralAI-User': PathAccess;
      DuckAssistBot: PathAccess;
      'cohere-ai': PathAccess;
      'cohere-training-data-crawler': PathAccess;
    };
    wildcard: PathAccess;
    excerpt: Excerpt;
  };
  /**
   * Declarations of how content may be used: Content-Signal lines in robots.txt, Content-Usage, license links and TDMRep.
   */
  usage?: {
    /**
     * Content-Signal records of robots.txt (contentsignals.org); null when robots.txt is not available.
     */
    content_signals:
      | {
          line: number;
          /**
           * The group the line sits in; empty before any group.
           */
          user_agents: string[];
          value: string;
          /**
           * key -> value, lower-cased (search, ai-input, ai-train: yes/no).
           */
          signals: {
            [k: string]: string | undefined;
          };
          problems: ('empty' | 'malformed_entry' | 'unknown_key' | 'invalid_value' | 'duplicate_key')[];
          /**
           * What the group's own rules decide for /; null outside a group.
           */
          root: Decision | null;
        }[]
      | null;
    /**
     * Content-Usage records of robots.txt (IETF aipref attach draft), as written.
     */
    content_usage:
      | {
          line: number;
          user_agents: string[];
          value: string;
        }[]
      | null;
    /**
     * License record values of robots.txt (RSL), as written.
     */
    licenses: string[] | null;
    /**
     * /.well-known/tdmrep.json (W3C TDMRep).
     */
    tdmrep: {
      published: Published;
      document: Document;
      /**
       * The body parsed as JSON.
       */
      json: boolean | null;
      /**
       * The JSON value is an array.
       */
      array: boolean | null;
      /**
       * Rules in file order.
       */
      entries:
        | {
            location: string | null;
            tdm_reservation: number | null;
            tdm_policy: string | null;
          }[]
        | null;
      /**
       * Entries that do not follow the TDMRep shape.
       */
      problems:
        | {
            index: number;
            code: 'not_an_object' | 'location_missing' | 'reservation_invalid' | 'policy_invalid';
          }[]
        | null;
      excerpt: Excerpt;
    };
  };
  /**
   * The /llms.txt file (llmstxt.org), parsed as its Markdown structure.
   */
  llms_txt?: {
    published: Published;
    document: Document;
    /**
     * Unicode code points of the text.
     */
    characters: number | null;
    /**
     * Text of the first H1.
     */
    title: string | null;
    /**
     * H1 headings outside code.
     */
    h1_count: number | null;
    /**
     * The first non-blank line is an H1.
     */
    starts_with_h1: boolean | null;
    /**
     * The blockquote after the H1 and before the first H2, joined.
     */
    summary: string | null;
    /**
     * H2 sections in order.
     */
    sections:
      | {
          title: string;
          line: number;
          /**
           * List items in the section.
           */
          items: number;
          /**
           * Of those, items that are [name](url) links.
           */
          link_items: number;
        }[]
      | null;
    /**
     * The first 200 markdown links outside code, in order.
     */
    links:
      | {
          section: string | null;
          title: string;
          url: string;
          notes: string | null;
          absolute: boolean;
        }[]
      | null;
    /**
     * All markdown links outside code.
     */
    link_count: number | null;
    /**
     * Links with a scheme.
     */
    absolute_link_count: number | null;
    /**
     * Links with the http: scheme.
     */
    http_link_count: number | null;
    /**
     * Links whose path ends in .md, .markdown or .txt.
     */
    markdown_link_count: number | null;
    /**
     * Departures from the llmstxt.org outline, in line order.
     */
    parse_errors:
      | {
          line: number;
          code:
            | 'missing_h1'
            | 'content_before_h1'
            | 'multiple_h1'
            | 'heading_before_sections'
            | 'list_item_without_link'
            | 'unclosed_code_fence';
        }[]
      | null;
    excerpt: Excerpt;
  };
  /**
   * The /llms-full.txt file (llmstxt.org): the whole documentation in one Markdown file.
   */
  llms_full_txt?: {
    published: Published;
    document: Document;
    /**
     * Text of the first markdown heading.
     */
    first_heading: string | null;
    /**
     * Its level (1 for H1).
     */
    first_heading_level: number | null;
  };
  /**
   * The sitemap (sitemaps.org protocol): the one robots.txt declares, else /sitemap.xml.
   */
  sitemap?: {
    published: Published;
    /**
     * Where the first sitemap URL came from: the first robots.txt Sitemap record, or the default /sitemap.xml.
     */
    source: 'robots' | 'default';
    document: Document;
    /**
     * The body is a gzip file.
     */
    gzip: boolean | null;
    /**
     * Bytes after decompression (equal to the body when not gzip); null beyond 16 MiB.
     */
    uncompressed_bytes: number | null;
    /**
     * xml, or text: the sitemaps.org text format (one URL per line, no markup), recognised when the body does not open with markup and its first line is an absolute http(s) URL; Google reads it as a sitemap too. Null when the body was not parsed.
     */
    format: 'xml' | 'text' | null;
    /**
     * Well-formed XML; null when the body was not fetched whole or not decompressed, or is a text sitemap (not XML).
     */
    well_formed: boolean | null;
    /**
     * The XML parser's message, with its line.
     */
    xml_error: string | null;
    /**
     * Local name of the root element: urlset or sitemapindex for the sitemap XML format, rss or feed for an RSS 2.0 or Atom feed, which sitemaps.org and Google also read as sitemaps; null when not XML.
     */
    root: string | null;
    /**
     * Namespace of the root element.
     */
    namespace: string | null;
    /**
     * url entries of a urlset, sitemap entries of a sitemapindex.
     */
    entry_count: number | null;
    /**
     * Entries without a loc.
     */
    loc_missing: number | null;
    /**
     * locs that are not absolute http(s) URLs under 2,048 characters.
     */
    loc_invalid: number | null;
    /**
     * Valid locs on another host than the sitemap's.
     */
    off_host: number | null;
    /**
     * Entries with a lastmod.
     */
    lastmod_count: number | null;
    /**
     * lastmod values that are not W3C Datetime.
     */
    lastmod_invalid: number | null;
    /**
     * The latest valid lastmod, ISO 8601 UTC.
     */
    lastmod_latest: string | null;
    /**
     * Entries whose loc path ends in .xml or .xml.gz: in a urlset, the mark of a sitemap index written as a urlset.
     */
    sitemap_like_locs: number | null;
    /**
     * Distinct absolute http(s) Sitemap URLs robots.txt declares.
     */
    declared_count: number;
    /**
     * Every sitemap followed, in order: the declared ones (else /sitemap.xml), then the children of declared indexes; at most 25.
     *
     * @maxItems 25
     */
    documents: {
      /**
       * The URL fetched.
       */
      url: string | null;
      /**
       * robots: declared in robots.txt; default: /sitemap.xml; index: a child of a declared sitemap index.
       */
      source: 'robots' | 'default' | 'index';
      published: Published;
      /**
       * HTTP status, null when no answer came.
       */
      status: number | null;
      /**
       * The body is a gzip file.
       */
      gzip: boolean | null;
      /**
       * Bytes after decompression (equal to the body when not gzip); null beyond 16 MiB.
       */
      uncompressed_bytes: number | null;
      /**
       * xml, or text: the sitemaps.org text format (one URL per line, no markup), recognised when the body does not open with markup and its first line is an absolute http(s) URL; Google reads it as a sitemap too. Null when the body was not parsed.
       */
      format: 'xml' | 'text' | null;
      /**
       * Well-formed XML; null when the body was not fetched whole or not decompressed, or is a text sitemap (not XML).
       */
      well_formed: boolean | null;
      /**
       * The XML parser's message, with its line.
       */
      xml_error: string | null;
      /**
       * Local name of the root element: urlset or sitemapindex for the sitemap XML format, rss or feed for an RSS 2.0 or Atom feed, which sitemaps.org and Google also read as sitemaps; null when not XML.
       */
      root: string | null;
      /**
       * Namespace of the root element.
       */
      namespace: string | null;
      /**
       * url entries of a urlset, sitemap entries of a sitemapindex.
       */
      entry_count: number | null;
      /**
       * Entries without a loc.
       */
      loc_missing: number | null;
      /**
       * locs that are not absolute http(s) URLs under 2,048 characters.
       */
      loc_invalid: number | null;
      /**
       * Valid locs on another host than the sitemap's.
       */
      off_host: number | null;
      /**
       * Entries with a lastmod.
       */
      lastmod_count: number | null;
      /**
       * lastmod values that are not W3C Datetime.
       */
      lastmod_invalid: number | null;
      /**
       * The latest valid lastmod, ISO 8601 UTC.
       */
      lastmod_latest: string | null;
      /**
       * Entries whose loc path ends in .xml or .xml.gz: in a urlset, the mark of a sitemap index written as a urlset.
       */
      sitemap_like_locs: number | null;
    }[];
    /**
     * Sitemaps known (declared, or listed by an index) but not fetched because the bound was reached.
     */
    not_followed: number;
    excerpt: Excerpt;
  };
  security_txt?: {
    published: Published;
    document: Document;
    /**
     * /security.txt, the legacy location (RFC 9116 section 3), which may redirect to the well-known one.
     */
    legacy: {
      published: Published;
      document: Document;
    };
    /**
     * The final URL of /.well-known/security.txt is https.
     */
    https: boolean | null;
    /**
     * The file is an OpenPGP cleartext signed message.
     */
    signed: boolean | null;
    /**
     * A signed file ends with a complete PGP SIGNATURE block; null when unsigned.
     */
    signature_complete: boolean | null;
    /**
     * The OpenPGP cleartext signature checked (RFC 9116 section 2.3); null when the file is not signed, or when no rule of the run reads it. RFC 9116 names no signing key, so the keys tried are those the file's Encryption fields point to on the site's own hosts (https, the domain or a subdomain).
     */
    signature: {
      /**
       * unreadable: the signature block is not an OpenPGP signature; digest_mismatch: the text is not the one signed (the left 16 bits of the signed hash, RFC 4880 section 5.2.4, differ from the hash of the canonical text), checked without any key; no_known_key: the digest matches, but no key the site names carries the signature's issuer key ID, so it cannot be verified; failed: a key with that ID was found and openpgp refused the signature at observed_at (see error); verified: the signature verifies with a key the site names.
       */
      verification: 'unreadable' | 'digest_mismatch' | 'no_known_key' | 'failed' | 'verified';
      /**
       * The issuer key ID the signature names (16 hex digits); null when unreadable.
       */
      key_id: string | null;
      /**
       * The signature's creation time; null when unreadable.
       */
      created: string | null;
      /**
       * Why openpgp refused the signature when verification is failed (cut to 200 characters); else null.
       */
      error: string | null;
      /**
       * The Encryption URLs fetched for keys (at most 3), in file order.
       */
      key_urls: string[];
      /**
       * OpenPGP keys read from those URLs.
       */
      keys_read: number;
    } | null;
    /**
     * Values per RFC 9116 field, in file order; null when the file was not parsed.
     */
    fields: {
      /**
       * acknowledgments
       */
      acknowledgments: string[];
      /**
       * canonical
       */
      canonical: string[];
      /**
       * contact
       */
      contact: string[];
      /**
       * csaf
       */
      csaf: string[];
      /**
       * encryption
       */
      encryption: string[];
      /**
       * expires
       */
      expires: string[];
      /**
       * hiring
       */
      hiring: string[];
      /**
       * policy
       */
      policy: string[];
      /**
       * preferred_languages
       */
      preferred_languages: string[];
    } | null;
    /**
     * Field names outside the IANA security.txt registry (a misspelt Acknowledgements among them), as first written, sorted case-insensitively.
     */
    unknown_fields: string[] | null;
    /**
     * The single Expires as ISO 8601 UTC, when there is exactly one and it is an RFC 3339 date-time; a space in place of the T (RFC 3339 section 5.6's note) is read too, and reported in parse_errors.
     */
    expires: string | null;
    /**
     * http: URIs in URI-valued fields.
     */
    insecure_uris: string[] | null;
    /**
     * Lines that break the RFC 9116 section 4 grammar, in line order: the line syntax (field-name ":" SP value) or their field's value grammar; and each subtag of a well-formed language tag that the IANA Language Subtag Registry lacks (RFC 5646 section 2.2.9: the tag is not valid).
     */
    parse_errors:
      | {
          line: number;
          code:
            | 'missing_separator'
            | 'invalid_field_name'
            | 'missing_space'
            | 'empty_value'
            | 'invalid_uri'
            | 'invalid_expires'
            | 'invalid_language_tag'
            | 'unregistered_language_subtag'
            | 'unterminated_signature'
            | 'text_after_signature';
          /**
           * The RFC 9116 section 4 ABNF production the line breaks.
           */
          production: string;
          /**
           * The line as written, at most 200 characters.
           */
          value: string;
          /**
           * For unregistered_language_subtag: the subtag the registry lacks, as written.
           */
          subtag?: string;
        }[]
      | null;
    excerpt: Excerpt;
  };
  discovery?: {
    home: Document;
    /**
     * The home page response carries a Link header.
     */
    link_header: boolean | null;
    /**
     * Link header values (RFC 8288) in order.
     */
    links:
      | {
          /**
           * Target resolved against the response URL.
           */
          href: string;
          /**
           * Relation types, lower-cased.
           */
          rel: string[];
          type: string | null;
        }[]
      | null;
    /**
     * Every relation type of the Link header, sorted, unique.
     */
    link_rels: string[] | null;
    /**
     * Link values that break the RFC 8288 section 3 grammar so that a browser drops them (no angle brackets, text after the target that does not start with ";", a parameter name that is not a token, an unterminated or partly quoted value, a target no URL parser resolves). An unquoted parameter value that is not a token, and a target outside RFC 3986 that still resolves, are kept, as Chromium keeps them, and listed in link_problems only.
     */
    link_parse_errors: number | null;
    /**
     * Every grammar problem of the Link header in order, each naming the production it breaks; a target outside RFC 3986 that the WHATWG URL parser still resolves, and an unquoted parameter value that is not a token, are kept as links (dropped false).
     */
    link_problems:
      | {
          /**
           * The production broken: link-value, link-param, quoted-string (RFC 8288 section 3, RFC 9110 section 5.6.4) or URI-Reference (RFC 3986 section 4.1).
           */
          production: 'link-value' | 'link-param' | 'quoted-string' | 'URI-Reference';
          /**
           * What was wrong, starting with the production.
           */
          detail: string;
          /**
           * The link-value was skipped, as clients skip it.
           */
          dropped: boolean;
        }[]
      | null;
    unknown_well_known: Document;
  };
}
/**
 * One fetched document: the response facts every document of the wellknown and agents probes records (plugins/shared/fetch-document.ts).
 */
export interface Document {
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
/**
 * RFC 9309 access of one crawler: 4xx robots.txt allows everything, 5xx or network failure disallows everything.
 */
export interface PathAccess {
  root: Decision;
  llms_txt: Decision;
  well_known: Decision;
  sitemap: Decision;
  /**
   * Which group decided: one naming the token, the * group, or none (no group applies, or no file to apply).
   */
  group: 'specific' | 'wildcard' | 'none';
}
