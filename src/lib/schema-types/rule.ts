// Generated from schemas/rule.schema.json by `npm run types`; edit the schema, not this file.

/**
 * One check of the catalogue: rules/<id with dots as slashes>.yaml. See docs/rule-authoring.md.
 */
export interface RuleFile {
  /**
   * Dotted, unique, equal to the file's path under rules/ with dots for slashes; starts with the category.
   */
  id: string;
  /**
   * Bump when the meaning changes.
   */
  version: number;
  /**
   * The passing condition, stated as a fact.
   */
  title: string;
  category:
    | 'dns'
    | 'email'
    | 'tls'
    | 'http'
    | 'headers'
    | 'cookies'
    | 'content'
    | 'metadata'
    | 'performance'
    | 'robots'
    | 'usage'
    | 'llms'
    | 'wellknown'
    | 'discovery'
    | 'mcp'
    | 'a2a'
    | 'agents'
    | 'api'
    | 'oauth'
    | 'identity'
    | 'commerce';
  /**
   * quick rules run in Quick Scan and Full Validation; full rules only in Full Validation.
   */
  tier: 'quick' | 'full';
  level: 'required' | 'recommended' | 'informational';
  /**
   * Observation paths the rule reads; a missing one, or one whose probe failed, makes the outcome error.
   *
   * @minItems 1
   */
  requires: [string, ...string[]];
  /**
   * json-logic; false makes the outcome not_applicable.
   */
  when?: {
    [k: string]: unknown | undefined;
  };
  /**
   * json-logic; true is pass, false is fail.
   */
  check: {
    [k: string]: unknown | undefined;
  };
  /**
   * Why an agent or its operator cares.
   */
  rationale: string;
  /**
   * What to change, in the imperative.
   */
  remediation: string;
  /**
   * @minItems 1
   */
  references: [string, ...string[]];
  /**
   * For rules on a draft or de-facto convention: the spec's status and version.
   */
  spec?: {
    status: 'standard' | 'draft' | 'proposal' | 'de-facto' | 'best-practice';
    name: string;
    version?: string;
  };
  /**
   * Why this required rule may pass when every fact is absent (the weak-rule gate's only escape).
   */
  hollow_pass_reason?: string;
  /**
   * @minItems 2
   */
  examples: [
    {
      name: string;
      observations: {};
      expect: 'pass' | 'fail' | 'not_applicable' | 'error';
      todo?: boolean;
    },
    {
      name: string;
      observations: {};
      expect: 'pass' | 'fail' | 'not_applicable' | 'error';
      todo?: boolean;
    },
    ...{
      name: string;
      observations: {};
      expect: 'pass' | 'fail' | 'not_applicable' | 'error';
      todo?: boolean;
    }[],
  ];
}
