// Generated from schemas/api/fullvalidation-request.json by `npm run types`; edit the schema, not this file.

/**
 * A full validation of a domain, paid with one payment token, answered with a signed certificate.
 */
export interface FullValidationRequest {
  /**
   * The domain to validate, e.g. example.com (no scheme, path or port).
   */
  domain: string;
  /**
   * A payment token from the checkout (GET /checkout). One token pays for one validation of one domain; repeating it for the same domain returns the same certificate.
   */
  payment_token: string;
}
