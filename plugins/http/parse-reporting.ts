// The headers that tell browsers where to send reports:
// - Reporting-Endpoints (W3C Reporting API, section 3.2): a Structured Fields dictionary (RFC 9651) of endpoint
//   names to URL strings, resolved against the response URL.
// - Report-To (the 2018 Reporting API draft, section 3.1, still read by Chromium for NEL): JSON objects, comma
//   separated without the outer brackets, each an endpoint group with max-age and endpoints.
// - NEL (W3C Network Error Logging, section 3.1): the same JSON form; a UA applies the first policy.
// A member of the wrong type is left out, as the specs say; the facts keep what the UA would use.
import { parseDictionary } from 'structured-headers';
import type { Nel, ReportingEndpoints, ReportTo } from './types.ts';

type Json = Record<string, unknown>;

function resolve(url: unknown, base: string): string | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url, base).href;
  } catch {
    return null;
  }
}

export function parseReportingEndpoints(value: string | null, pageUrl: string): ReportingEndpoints {
  if (value === null) return { raw: null, parse_error: null, endpoints: [] };
  try {
    const endpoints = [...parseDictionary(value)].map(([name, [bare]]) => ({ name, url: resolve(bare, pageUrl) }));
    return { raw: value, parse_error: null, endpoints };
  } catch (err) {
    return { raw: value, parse_error: `sf-dictionary: ${(err as Error).message}`, endpoints: [] };
  }
}

/** The header as a JSON array (HTTP-JFV: members without the outer brackets); objects only. */
function jsonMembers(value: string, production: string): Json[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(`[${value}]`);
  } catch (err) {
    throw new Error(`${production}: not JSON (${(err as Error).message})`, { cause: err });
  }
  const members = parsed as unknown[];
  if (!members.every((m) => m !== null && typeof m === 'object' && !Array.isArray(m)))
    throw new Error(`${production}: a member is not a JSON object`);
  return members as Json[];
}

/** max_age: a non-negative integer, else the member is unusable (null). */
function maxAge(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

function fraction(v: unknown, fallback: number): number {
  return typeof v === 'number' && v >= 0 && v <= 1 ? v : fallback;
}

export function parseReportTo(value: string | null, pageUrl: string): ReportTo {
  if (value === null) return { raw: null, parse_error: null, groups: [] };
  try {
    const groups = jsonMembers(value, 'Report-To').map((g) => ({
      name: typeof g.group === 'string' ? g.group : 'default',
      max_age: maxAge(g.max_age),
      include_subdomains: g.include_subdomains === true,
      endpoints: (Array.isArray(g.endpoints) ? (g.endpoints as unknown[]) : [])
        .map((e) => (e !== null && typeof e === 'object' ? resolve((e as Json).url, pageUrl) : null))
        .filter((u): u is string => u !== null),
    }));
    return { raw: value, parse_error: null, groups };
  } catch (err) {
    return { raw: value, parse_error: (err as Error).message, groups: [] };
  }
}

export function parseNel(value: string | null): Nel {
  const empty: Nel = {
    raw: value,
    parse_error: null,
    report_to: null,
    max_age: null,
    include_subdomains: false,
    success_fraction: 0,
    failure_fraction: 1,
  };
  if (value === null) return empty;
  try {
    const [policy] = jsonMembers(value, 'NEL');
    if (policy === undefined) return { ...empty, parse_error: 'NEL: no policy object' };
    return {
      ...empty,
      report_to: typeof policy.report_to === 'string' ? policy.report_to : null,
      max_age: maxAge(policy.max_age),
      include_subdomains: policy.include_subdomains === true,
      success_fraction: fraction(policy.success_fraction, 0),
      failure_fraction: fraction(policy.failure_fraction, 1),
    };
  } catch (err) {
    return { ...empty, parse_error: (err as Error).message };
  }
}
