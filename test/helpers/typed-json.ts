// JSON at a test's boundary: parsed, checked against the project's schema for it, and typed by the type
// generated from that schema (src/lib/schema-types), so a test reads only fields the contract has.
import path from 'node:path';
import { expect } from 'vitest';
import { validationProblem } from '../../src/api/operations/api-schemas.ts';
import { ObservationSchemas } from '../../src/catalogue/observation-schemas.ts';
import { REPO_ROOT } from '../../src/lib/paths.ts';
import type { CertificateStatus } from '../../src/lib/schema-types/api/certificate-status.ts';
import type { Error as ErrorBody } from '../../src/lib/schema-types/api/error.ts';
import type { ScanResult } from '../../src/lib/schema-types/api/scan-result.ts';
import type { Certificate } from '../../src/lib/schema-types/certificate.ts';
import type { Report } from '../../src/lib/schema-types/report.ts';
import type { Namespaces } from '../../plugins/index.ts';

/** The documents of schemas/ and schemas/api/ a test reads, by schema name. */
interface Documents {
  error: ErrorBody;
  'scan-result': ScanResult;
  'certificate-status': CertificateStatus;
  certificate: Certificate;
  report: Report;
}

/** Parses `text` as the named document and returns it typed; throws naming every way it breaks the schema. */
export function parseAs<K extends keyof Documents>(name: K, text: string): Documents[K] {
  const value: unknown = JSON.parse(text);
  const problem = validationProblem(name, value);
  if (problem !== null) throw new Error(`not a valid ${name} document: ${problem}\n${text.slice(0, 500)}`);
  return value as Documents[K];
}

/** A fetch response's body as the named document. */
export async function readJson<K extends keyof Documents>(name: K, res: Response): Promise<Documents[K]> {
  return parseAs(name, await res.text());
}

/** Each probe's output, by namespace. */
type Observations = Namespaces;

let loaded: ObservationSchemas | null = null;
const schemas = (): ObservationSchemas =>
  (loaded ??= ObservationSchemas.fromDirectory(path.join(REPO_ROOT, 'schemas', 'observations')));

/**
 * A probe's output checked against its schema (complete) and holding every facet named, typed so: what the
 * facets asked for is there, the rest stays optional.
 */
export function facets<K extends keyof Observations, F extends keyof Observations[K]>(
  namespace: K,
  value: unknown,
  names: readonly F[],
): Observations[K] & Required<Pick<Observations[K], F>> {
  expect(schemas().validate(namespace, value, 'complete')).toBeNull();
  expect(Object.keys(value as object)).toEqual(expect.arrayContaining(names.map(String)));
  return value as Observations[K] & Required<Pick<Observations[K], F>>;
}

/** A probe's output with every facet its schema declares (a scan that needed them all), checked and typed so. */
export function allFacets<K extends keyof Observations>(namespace: K, value: unknown): Required<Observations[K]> {
  const declared = Object.keys((schemas().namespaces.get(namespace)?.properties as object | undefined) ?? {});
  return facets(namespace, value, declared as (keyof Observations[K])[]);
}

// vitest types its asymmetric matchers as `any`; these say what each stands in for.
/** Any string. */
export const anyString = (): string => expect.any(String) as string;
/** A string matching the pattern. */
export const stringMatching = (pattern: RegExp | string): string => expect.stringMatching(pattern) as string;
/** A string holding the text. */
export const stringContaining = (text: string): string => expect.stringContaining(text) as string;
