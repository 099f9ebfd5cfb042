// Generated from schemas/observations/agents.json by `npm run types`; edit the schema, not this file.

import type { Document, Excerpt, Published } from './wellknown.ts';

/**
 * The published body parsed as JSON (RFC 8259); false when the document is not published or does not parse.
 */
export type JsonParsed = boolean;
/**
 * The JSON parser's message when a published body did not parse; null otherwise.
 */
export type JsonError = string | null;

/**
 * Documents a site publishes for AI agents and their clients, fetched from the scanned https origin without following redirects, each parsed into facts. Facets are collected only when a rule reads them.
 */
export interface AgentsObservations {
  /**
   * MCP discovery and one initialize exchange.
   */
  mcp?: {
    manifest: McpDocument;
    server_card: McpDocument;
    catalog: EntryCatalog;
    /**
     * initialize and tools/list against the first declared https endpoint on the scanned site (server card first); null when none is declared.
     */
    endpoint: null | {
      /**
       * The endpoint as declared.
       */
      url: string;
      /**
       * HTTP status of the initialize POST.
       */
      status: number | null;
      /**
       * Media type of that answer.
       */
      content_type: string | null;
      /**
       * Network error code when initialize got no answer.
       */
      error: string | null;
      /**
       * The JSON-RPC response came as a JSON body or an event stream; null when none was found.
       */
      framing: 'json' | 'sse' | null;
      /**
       * `error.code` of a JSON-RPC error response.
       */
      jsonrpc_error_code: number | null;
      /**
       * The initialize result has the shape the MCP schema requires.
       */
      result_valid: boolean;
      /**
       * `serverInfo.name`.
       */
      server_name: string | null;
      /**
       * `serverInfo.version`.
       */
      server_version: string | null;
      /**
       * `protocolVersion` the server chose.
       */
      protocol_version: string | null;
      /**
       * Keys of the server's `capabilities`, sorted.
       */
      capabilities: string[];
      /**
       * The Mcp-Session-Id header of the initialize answer as sent (cut to 256 characters); null when the server keeps no session (stateless). MCP Streamable HTTP: a session ID must only contain visible ASCII characters (0x21 to 0x7E).
       */
      session_id: string | null;
      /**
       * Auth schemes of WWW-Authenticate on the initialize answer, lower-cased, sorted.
       */
      www_authenticate_schemes: string[];
      /**
       * `resource_metadata` parameter of that challenge (RFC 9728 section 5.1).
       */
      resource_metadata_url: string | null;
      /**
       * HTTP status of tools/list; null when it was not sent.
       */
      tools_list_status: number | null;
      /**
       * Tools in a valid tools/list result.
       */
      tools_count: number | null;
    };
  };
  /**
   * A2A agent cards.
   */
  a2a?: {
    card: AgentCard;
    legacy_card: AgentCard;
  };
  /**
   * The first OpenAPI description published at /openapi.json, then /.well-known/openapi.json (else the answer for /openapi.json).
   */
  openapi?: {
    published: Published;
    document: Document;
    json_parsed: JsonParsed;
    json_error: JsonError;
    /**
     * OpenAPI 3.x (`openapi`) or Swagger 2.0 (`swagger`).
     */
    family: 'openapi' | 'swagger' | null;
    /**
     * Value of `openapi` or `swagger`.
     */
    spec_version: string | null;
    /**
     * `info.title`.
     */
    info_title: string | null;
    /**
     * `info.version`.
     */
    info_version: string | null;
    /**
     * Keys of `paths`; null when absent.
     */
    paths_count: number | null;
    /**
     * Keys of `webhooks`; null when absent.
     */
    webhooks_count: number | null;
    /**
     * Operations under paths and webhooks.
     */
    operations_count: number;
    /**
     * Operations with an operationId.
     */
    operation_ids_count: number;
    /**
     * operationIds used more than once, sorted.
     */
    duplicate_operation_ids: string[];
    /**
     * Operations with a summary or description.
     */
    described_operations_count: number;
    /**
     * Operations with a non-empty security requirement (their own or the global one).
     */
    secured_operations_count: number;
    /**
     * Entries of components.securitySchemes (securityDefinitions in 2.0).
     */
    security_schemes_count: number;
    /**
     * Declared servers (2.0: host x schemes).
     */
    servers_count: number;
    /**
     * Servers that are not absolute https URLs.
     */
    servers_non_https_count: number;
    excerpt: Excerpt;
  };
  /**
   * /.well-known/api-catalog (RFC 9727).
   */
  api_catalog?: {
    published: Published;
    document: Document;
    json_parsed: JsonParsed;
    json_error: JsonError;
    /**
     * `profile` parameter of Content-Type.
     */
    profile: string | null;
    /**
     * The document is an object with a `linkset` list.
     */
    linkset_present: boolean;
    /**
     * Link contexts in the linkset.
     */
    contexts_count: number | null;
    /**
     * Contexts a reader cannot place: not an object, no `anchor`, or an anchor that is not a URI reference resolving against the catalog's URL (RFC 9264 section 4.2.2 allows a relative reference, which section 6 has readers resolve; a missing anchor leaves the context undetermined).
     */
    contexts_without_resolvable_anchor_count: number | null;
    /**
     * Contexts without an absolute `anchor` (RFC 9264 section 4.2.2: it SHOULD NOT be a relative reference).
     */
    contexts_without_absolute_anchor_count: number | null;
    /**
     * Relation types used, sorted.
     */
    relations: string[];
    /**
     * Link targets without a string `href`.
     */
    links_without_href_count: number;
    /**
     * `service-desc` targets.
     */
    service_desc_count: number;
    /**
     * `service-doc` targets.
     */
    service_doc_count: number;
    /**
     * `item` targets.
     */
    item_count: number;
    excerpt: Excerpt;
  };
  /**
   * OAuth discovery metadata at the root well-known paths, at the locations of the authorization servers the protected resource names, and the key sets their jwks_uri name.
   */
  oauth?: {
    /**
     * /.well-known/oauth-protected-resource (RFC 9728).
     */
    protected_resource: {
      published: Published;
      document: Document;
      json_parsed: JsonParsed;
      json_error: JsonError;
      /**
       * `resource`.
       */
      resource: string | null;
      /**
       * The resource identifier the document's location names (RFC 9728 section 3.1): https://<domain> for the root well-known path.
       */
      expected_resource: string | null;
      /**
       * `authorization_servers` entries that are strings, in document order.
       */
      authorization_servers: string[];
      /**
       * @deprecated
       * Not written since ruleset 1.14.0, whose rules count `authorization_servers` themselves; kept so that evidence recorded before validates. Length of `authorization_servers`; null when absent.
       */
      authorization_servers_count?: number | null;
      /**
       * Authorization servers that are not absolute https URLs.
       */
      authorization_servers_non_https_count: number | null;
      /**
       * `bearer_methods_supported`, sorted.
       */
      bearer_methods_supported: string[] | null;
      /**
       * `scopes_supported`, sorted.
       */
      scopes_supported: string[] | null;
      /**
       * `jwks_uri`.
       */
      jwks_uri: string | null;
      excerpt: Excerpt;
    };
    authorization_server: AuthorizationServer;
    openid_configuration: AuthorizationServer;
    /**
     * Each authorization server the protected resource names that is not the site's origin (at most 3), in document order.
     */
    named_servers: NamedServer[];
    /**
     * Every https jwks_uri the OAuth metadata names (at most 4), fetched once each, in the order first named.
     */
    key_sets: KeySet[];
  };
  /**
   * Published public keys.
   */
  identity?: {
    /**
     * /.well-known/jwks.json
     */
    jwks: {
      published: Published;
      document: Document;
      json_parsed: JsonParsed;
      json_error: JsonError;
      /**
       * @deprecated
       * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Length of `keys`; null when the document has no keys list.
       */
      keys_count?: number | null;
      /**
       * Facts per key, in document order.
       */
      keys: Jwk[];
      /**
       * Private or symmetric key members (d, dp, dq, k, oth, p, q, qi) found in any key, sorted.
       */
      private_members: string[];
      /**
       * @deprecated
       * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Keys without a string `kty`.
       */
      keys_without_kty_count?: number;
      /**
       * @deprecated
       * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Keys without a string `kid`.
       */
      keys_without_kid_count?: number;
      /**
       * `kid` values used by more than one key, sorted.
       */
      duplicate_kids: string[];
      /**
       * @deprecated
       * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Keys whose `kid` is not their RFC 7638 SHA-256 thumbprint.
       */
      kid_thumbprint_mismatch_count?: number;
      /**
       * Keys whose nbf is absent or not after observed_at and whose exp is absent or after it.
       */
      keys_valid_at_observation_count: number;
      /**
       * Violations of RFC 7517/7518/8037 JWK members (a key type's required members, member types), as `<production> <JSON pointer>: <reason>` (at most 20 violations in all).
       */
      form_violations: string[];
      /**
       * Values that are not base64url without padding (RFC 7515 section 2), as `<production> <JSON pointer>: <reason>` (at most 20 violations in all).
       */
      encoding_violations: string[];
      excerpt: Excerpt;
    };
    /**
     * /.well-known/http-message-signatures-directory (Web Bot Auth key directory).
     */
    wba_directory: {
      published: Published;
      document: Document;
      json_parsed: JsonParsed;
      json_error: JsonError;
      /**
       * The Signature header of the answer (RFC 9421); null when absent.
       */
      signature: string | null;
      /**
       * The Signature-Input header of the answer (RFC 9421); null when absent.
       */
      signature_input: string | null;
      /**
       * Cache-Control of the answer.
       */
      cache_control: string | null;
      /**
       * @deprecated
       * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Length of `keys`; null when the document has no keys list.
       */
      keys_count?: number | null;
      /**
       * Facts per key, in document order.
       */
      keys: Jwk[];
      /**
       * Private or symmetric key members (d, dp, dq, k, oth, p, q, qi) found in any key, sorted.
       */
      private_members: string[];
      /**
       * @deprecated
       * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Keys without a string `kty`.
       */
      keys_without_kty_count?: number;
      /**
       * @deprecated
       * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Keys without a string `kid`.
       */
      keys_without_kid_count?: number;
      /**
       * `kid` values used by more than one key, sorted.
       */
      duplicate_kids: string[];
      /**
       * @deprecated
       * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Keys whose `kid` is not their RFC 7638 SHA-256 thumbprint.
       */
      kid_thumbprint_mismatch_count?: number;
      /**
       * Keys whose nbf is absent or not after observed_at and whose exp is absent or after it.
       */
      keys_valid_at_observation_count: number;
      /**
       * Violations of RFC 7517/7518/8037 JWK members (a key type's required members, member types), as `<production> <JSON pointer>: <reason>` (at most 20 violations in all).
       */
      form_violations: string[];
      /**
       * Values that are not base64url without padding (RFC 7515 section 2), as `<production> <JSON pointer>: <reason>` (at most 20 violations in all).
       */
      encoding_violations: string[];
      /**
       * The listed Ed25519 keys (by RFC 7638 thumbprint, sorted) whose signature on the answer verifies under RFC 9421 as the Web Bot Auth directory draft asks: tag http-message-signatures-directory, keyid the thumbprint, created and expires present and holding when fetched (60 s skew), "@authority";req covered with the authority the request was sent to. Checked by the verifier the service applies to callers' directories. Null when the answer carries no Signature or Signature-Input, or its body is not a key set the verifier reads (not a JWK set, a private key, an x that is not 32 bytes, a non-integer nbf or exp); an empty list when no listed key's signature verifies.
       */
      signature_verified_keyids?: string[] | null;
      excerpt: Excerpt;
    };
  };
  /**
   * Other agent manifests.
   */
  manifests?: {
    /**
     * /.well-known/ai-plugin.json (legacy OpenAI plugin manifest).
     */
    ai_plugin: {
      published: Published;
      document: Document;
      json_parsed: JsonParsed;
      json_error: JsonError;
      /**
       * `schema_version`.
       */
      schema_version: string | null;
      /**
       * `name_for_model`.
       */
      name_for_model: string | null;
      /**
       * `description_for_model`.
       */
      description_for_model: string | null;
      /**
       * `api.url`.
       */
      api_url: string | null;
      excerpt: Excerpt;
    };
    /**
     * /.well-known/agents.json
     */
    agents_json: {
      published: Published;
      document: Document;
      json_parsed: JsonParsed;
      json_error: JsonError;
      excerpt: Excerpt;
    };
    /**
     * /.well-known/agent-skills/index.json (Agent Skills discovery v0.2).
     */
    skills_index: {
      published: Published;
      document: Document;
      json_parsed: JsonParsed;
      json_error: JsonError;
      /**
       * `$schema`.
       */
      schema_url: string | null;
      /**
       * Length of `skills`.
       */
      skills_count: number | null;
      /**
       * Skills lacking a lowercase-hyphen name of at most 64 characters, type skill-md or archive, a description of 1 to 1024 characters, a url, or a sha256:<hex> digest.
       */
      skills_incomplete_count: number | null;
      excerpt: Excerpt;
    };
    ai_catalog: EntryCatalog;
    /**
     * /AGENTS.md
     */
    agents_md: {
      published: Published;
      document: Document;
    };
    /**
     * /auth.md
     */
    auth_md: {
      published: Published;
      document: Document;
    };
  };
  /**
   * Commerce discovery documents and payment challenges.
   */
  commerce?: {
    /**
     * /.well-known/ucp (UCP business profile).
     */
    ucp: {
      published: Published;
      document: Document;
      json_parsed: JsonParsed;
      json_error: JsonError;
      /**
       * `ucp.version`.
       */
      version: string | null;
      /**
       * Keys of `ucp.services`.
       */
      services_count: number | null;
      /**
       * Entries of `ucp.capabilities`.
       */
      capabilities_count: number | null;
      /**
       * `endpoint` values under services that are not absolute https URLs.
       */
      non_https_endpoints_count: number;
      excerpt: Excerpt;
    };
    /**
     * /.well-known/acp.json
     */
    acp: {
      published: Published;
      document: Document;
      json_parsed: JsonParsed;
      json_error: JsonError;
      excerpt: Excerpt;
    };
    /**
     * Every 402 answer this probe received in this run, sorted by URL.
     *
     * Items: One 402 answer.
     */
    payment_challenges: {
      /**
       * The URL that answered 402.
       */
      url: string;
      /**
       * PAYMENT-REQUIRED (x402 v2) was sent.
       */
      payment_required_header: boolean;
      /**
       * `x402Version` of the decoded header, else of the JSON body.
       */
      x402_version: number | null;
      /**
       * Length of `accepts`.
       */
      x402_accepts_count: number | null;
      /**
       * Offers lacking scheme, network, asset, payTo, amount (or maxAmountRequired) or a numeric maxTimeoutSeconds.
       */
      x402_accepts_incomplete_count: number | null;
      /**
       * Auth schemes of WWW-Authenticate, lower-cased, sorted.
       */
      www_authenticate_schemes: string[];
      /**
       * crawler-price (pay per crawl) was sent.
       */
      crawler_price: boolean;
    }[];
  };
}
/**
 * An MCP server card, SEP-1649 mcp.json manifest, or published client configuration.
 */
export interface McpDocument {
  published: Published;
  document: Document;
  json_parsed: JsonParsed;
  json_error: JsonError;
  /**
   * Shape found: SEP-2127 server card (remotes[]), SEP-1649 manifest (serverInfo/transport), a client configuration (mcpServers or servers), another JSON object; null when no JSON object was read.
   */
  format: 'server-card' | 'legacy-manifest' | 'client-config' | 'unknown' | null;
  /**
   * `name` (server card), `serverInfo.name` (legacy manifest), or the first server's key or `name` in a client configuration.
   */
  name: string | null;
  /**
   * `serverInfo.version`, else `version`.
   */
  version: string | null;
  /**
   * `description`.
   */
  description: string | null;
  /**
   * `$schema`.
   */
  schema_url: string | null;
  /**
   * `protocolVersion` (legacy manifests).
   */
  protocol_version: string | null;
  /**
   * Declared endpoints (remotes[], transport.endpoint/url, top-level endpoint and url, mcpServers and servers entries with url/serverUrl/httpUrl, endpoints), resolved against the document URL, in that order of members and document order within each.
   *
   * Items: One declared endpoint.
   */
  remotes: {
    /**
     * Absolute URL (scheme and host lower-cased by URL resolution).
     */
    url: string;
    /**
     * Declared transport type (streamable-http, sse, ...).
     */
    transport: string | null;
    /**
     * The member of the document that declared the endpoint.
     */
    declared_in: 'remotes' | 'transport' | 'endpoint' | 'url' | 'mcpServers' | 'servers' | 'endpoints';
    /**
     * The host is the scanned domain or one of its subdomains.
     */
    on_site: boolean;
  }[];
  /**
   * Length of a static `tools` list (legacy manifests); null when absent.
   */
  tools_count: number | null;
  /**
   * Declared authentication schemes (authentication.schemes or auth.type), sorted.
   */
  auth_schemes: string[];
  /**
   * The MCP Server Card schema version the document declares in `$schema` (https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json is v1) and was validated against; null when it declares no schema URL we hold (an older date-versioned draft URL, another format).
   */
  judged_against: 'v1' | null;
  /**
   * Violations of that Server Card schema (required members $schema, name, version, description; name in reverse-DNS form `namespace/name`; description 1 to 100 characters; each remote's type `sse` or `streamable-http` and url an http(s) URL or a `{variable}` template...), as `<production> <JSON pointer>: <reason>` (at most 20); null when not judged.
   */
  schema_violations: string[] | null;
  excerpt: Excerpt;
}
/**
 * A catalog of entries (MCP Catalog, ARD AI Catalog).
 */
export interface EntryCatalog {
  published: Published;
  document: Document;
  json_parsed: JsonParsed;
  json_error: JsonError;
  /**
   * `specVersion`.
   */
  spec_version: string | null;
  /**
   * Length of `entries`; null when not a list.
   */
  entries_count: number | null;
  /**
   * Entries lacking string identifier, displayName or type, or lacking both url and inline data.
   */
  entries_incomplete_count: number | null;
  /**
   * Distinct entry `type` values, sorted.
   */
  entry_types: string[];
  excerpt: Excerpt;
}
/**
 * An A2A agent card.
 */
export interface AgentCard {
  published: Published;
  document: Document;
  json_parsed: JsonParsed;
  json_error: JsonError;
  /**
   * Where the endpoint is declared: A2A 1.0 supportedInterfaces[] or the 0.3 top-level url; null when neither.
   */
  interface_style: 'supported-interfaces' | 'top-level-url' | null;
  /**
   * The A2A schema line the card is judged against, from the version it declares (1.0 for a supportedInterfaces card; 0.1 (v0.1.0), 0.2 (v0.2.0-0.2.4), 0.3 (v0.2.5-0.3.x); a card declaring none: 0.1 when it carries `authentication`, else 0.2); null when no JSON object was read.
   */
  judged_against: '0.1' | '0.2' | '0.3' | '1.0' | null;
  /**
   * `name`.
   */
  name: string | null;
  /**
   * `description`.
   */
  description: string | null;
  /**
   * `version`.
   */
  version: string | null;
  /**
   * The declared protocol version: first interface protocolVersion, else top-level protocolVersion.
   */
  protocol_version: string | null;
  /**
   * First interface url, else top-level url.
   */
  url: string | null;
  /**
   * URLs declared in url, supportedInterfaces[] and additionalInterfaces[].
   */
  endpoint_urls_count: number | null;
  /**
   * Those URLs that are not absolute https URLs.
   */
  endpoint_urls_non_https_count: number | null;
  /**
   * Length of `skills`; null when not a list.
   */
  skills_count: number | null;
  /**
   * Skills that break the judged version's AgentSkill (a missing required member or a member of the wrong type).
   */
  skills_incomplete_count: number | null;
  /**
   * `defaultInputModes`, sorted; null when absent.
   */
  default_input_modes: string[] | null;
  /**
   * `defaultOutputModes`, sorted; null when absent.
   */
  default_output_modes: string[] | null;
  /**
   * Input and output modes (card defaults and skills) that are not media types (RFC 9110 section 8.3.1 type "/" subtype), sorted.
   */
  modes_not_media_types: string[];
  /**
   * Keys of `securitySchemes`, sorted.
   */
  security_schemes: string[];
  /**
   * Scheme names used in `security` that securitySchemes does not define, sorted.
   */
  security_undefined_refs: string[];
  /**
   * Length of `signatures`; null when absent.
   */
  signatures_count: number | null;
  /**
   * The card's signatures (A2A specification section 8.4), the first 8 in order, each verified as a JWS with the RFC 8785 form of the card without `signatures` as its detached payload, with a key from the key set its protected header's `jku` names when that is an https URL on the scanned site or a subdomain (at most two key sets per scan). Null when the card has no `signatures` list.
   */
  signatures:
    | {
        /**
         * The protected header's alg; null when the header is unreadable or alg is not a string.
         */
        alg: string | null;
        /**
         * The protected header's kid; null when absent or not a string.
         */
        kid: string | null;
        /**
         * The protected header's jku, as written; null when absent or not a string.
         */
        jku: string | null;
        /**
         * Whether the signature verified with a key of the key set jku names.
         */
        verified: boolean;
        /**
         * Why it did not verify, null when it did: malformed (no string protected and signature), header_unreadable (not base64url of a JSON object), alg_not_allowed (not an asymmetric JWS algorithm), card_not_canonical (the card has no RFC 8785 form), no_jku, jku_not_on_site (not https, or a host other than the scanned site and its subdomains), jku_over_limit (a third key set), key_set_unavailable (not fetched, not published, or not a JWK set), key_not_found (no key of the set fits kid and alg), jws_invalid (a JWS the verifier refuses, such as an unknown crit), signature_invalid (the key does not verify it: a card altered after signing, or signed with another key).
         */
        reason:
          | null
          | 'malformed'
          | 'header_unreadable'
          | 'alg_not_allowed'
          | 'card_not_canonical'
          | 'no_jku'
          | 'jku_not_on_site'
          | 'jku_over_limit'
          | 'key_set_unavailable'
          | 'key_not_found'
          | 'jws_invalid'
          | 'signature_invalid';
      }[]
    | null;
  /**
   * Members the judged version requires of the card that are absent, sorted.
   */
  missing_required: string[];
  /**
   * Other violations of the judged version's schema outside skills, as `<production> <JSON pointer>: <reason>` (at most 20).
   */
  form_violations: string[];
  /**
   * The protocol extensions the card declares in capabilities.extensions (A2A 0.3 and 1.0 AgentExtension), the first 20 in order; an entry that is not an object with a string uri is left out. An empty list when the card declares none.
   */
  extensions?: {
    /**
     * The extension's uri, as written: the identifier a client matches exactly.
     */
    uri: string;
    /**
     * The extension's required member (the client must understand the extension to use the agent); null when absent or not a boolean.
     */
    required: boolean | null;
    /**
     * params.roles, when it is a list of strings: the AP2 extension's parameter naming the roles the agent performs in a payment (merchant, shopper, credentials-provider, payment-processor). Null when params or roles is absent, or roles is not a list of strings.
     */
    roles: string[] | null;
  }[];
  excerpt: Excerpt;
}
/**
 * OAuth authorization server metadata (RFC 8414) or OpenID Connect discovery document.
 */
export interface AuthorizationServer {
  published: Published;
  document: Document;
  json_parsed: JsonParsed;
  json_error: JsonError;
  /**
   * `issuer`.
   */
  issuer: string | null;
  /**
   * The issuer the document's location names (RFC 8414 section 3.3, OpenID Connect Discovery section 4.3), without a terminating slash: https://<domain> for the root well-known paths.
   */
  expected_issuer: string | null;
  /**
   * `authorization_endpoint`.
   */
  authorization_endpoint: string | null;
  /**
   * `token_endpoint`.
   */
  token_endpoint: string | null;
  /**
   * `jwks_uri`.
   */
  jwks_uri: string | null;
  /**
   * `registration_endpoint` (RFC 7591 dynamic client registration).
   */
  registration_endpoint: string | null;
  /**
   * Names of *_endpoint and jwks_uri members whose value is not an absolute https URL, sorted.
   */
  non_https_endpoints: string[];
  /**
   * `response_types_supported`, sorted; null when absent.
   */
  response_types_supported: string[] | null;
  /**
   * `grant_types_supported`, sorted; null when absent.
   */
  grant_types_supported: string[] | null;
  /**
   * `code_challenge_methods_supported`, sorted; null when absent.
   */
  code_challenge_methods_supported: string[] | null;
  excerpt: Excerpt;
}
/**
 * An authorization server named by the protected resource metadata, read at both locations its identifier implies.
 */
export interface NamedServer {
  /**
   * The identifier as authorization_servers names it.
   */
  named_as: string;
  oauth_authorization_server: AuthorizationServer;
  openid_configuration: AuthorizationServer;
}
/**
 * A key set named by jwks_uri.
 */
export interface KeySet {
  /**
   * The jwks_uri.
   */
  url: string;
  /**
   * The documents naming it: protected_resource, authorization_server, openid_configuration, or named_servers:<identifier>; sorted.
   */
  named_by: string[];
  published: Published;
  document: Document;
  json_parsed: JsonParsed;
  json_error: JsonError;
  /**
   * @deprecated
   * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Length of `keys`; null when the document has no keys list.
   */
  keys_count?: number | null;
  /**
   * Facts per key, in document order.
   */
  keys: Jwk[];
  /**
   * Private or symmetric key members (d, dp, dq, k, oth, p, q, qi) found in any key, sorted.
   */
  private_members: string[];
  /**
   * @deprecated
   * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Keys without a string `kty`.
   */
  keys_without_kty_count?: number;
  /**
   * @deprecated
   * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Keys without a string `kid`.
   */
  keys_without_kid_count?: number;
  /**
   * `kid` values used by more than one key, sorted.
   */
  duplicate_kids: string[];
  /**
   * @deprecated
   * Not written since ruleset 1.14.0, whose rules count `keys` themselves; kept so that evidence recorded before validates. Keys whose `kid` is not their RFC 7638 SHA-256 thumbprint.
   */
  kid_thumbprint_mismatch_count?: number;
  /**
   * Keys whose nbf is absent or not after observed_at and whose exp is absent or after it.
   */
  keys_valid_at_observation_count: number;
  /**
   * Violations of RFC 7517/7518/8037 JWK members (a key type's required members, member types), as `<production> <JSON pointer>: <reason>` (at most 20 violations in all).
   */
  form_violations: string[];
  /**
   * Values that are not base64url without padding (RFC 7515 section 2), as `<production> <JSON pointer>: <reason>` (at most 20 violations in all).
   */
  encoding_violations: string[];
  excerpt: Excerpt;
}
/**
 * One key of a key set.
 */
export interface Jwk {
  /**
   * `kid`.
   */
  kid: string | null;
  /**
   * `kty`.
   */
  kty: string | null;
  /**
   * `alg`.
   */
  alg: string | null;
  /**
   * `use`.
   */
  use: string | null;
  /**
   * Private or symmetric members present in this key, sorted.
   */
  private_members: string[];
  /**
   * `nbf` as an ISO 8601 UTC date.
   */
  nbf: string | null;
  /**
   * `exp` as an ISO 8601 UTC date.
   */
  exp: string | null;
  /**
   * `kid` equals the key's RFC 7638 SHA-256 thumbprint; null without a kid.
   */
  kid_is_thumbprint: boolean | null;
}
