// Generated from schemas/api/batch-request.json by `npm run types`; edit the schema, not this file.

/**
 * Many domains at once for one account: Quick Scans (mode quick, a list of domains) or Full Validations (mode full, each domain with its own payment token). Each domain is checked on its own: an invalid one is listed in `rejected`, never the whole batch.
 */
export type BatchRequest =
  | {
      /**
       * Quick Scans (free, within the account's quota).
       */
      mode: 'quick';
      /**
       * The domains to scan, e.g. example.com (no scheme, path or port). Duplicates are scanned once.
       *
       * @minItems 1
       * @maxItems 100000
       */
      domains: [string, ...string[]];
    }
  | {
      /**
       * Full Validations, each paid with one payment token.
       */
      mode: 'full';
      /**
       * The domains with the token that pays for each. A token is spent only when its certificate is issued: an item cancelled or not validated keeps it unspent.
       *
       * @minItems 1
       * @maxItems 100000
       */
      items: [
        {
          domain: string;
          payment_token: string;
        },
        ...{
          domain: string;
          payment_token: string;
        }[],
      ];
    };
