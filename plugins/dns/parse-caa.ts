// CAA property values (RFC 8659 section 4): the issuer and parameters of issue/issuewild, and the URL of
// iodef. Pure; which tags a CA understands is for the rules.
import type { CaaRecord } from '../../src/lib/schema-types/observations/dns.ts';

export type CaaRecordFacts = CaaRecord;

const LABEL = '[A-Za-z0-9](?:-*[A-Za-z0-9])*';
const ISSUER = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const PARAM_TAG = new RegExp(`^${LABEL}$`);
const PARAM_VALUE = /^[\x21-\x3a\x3c-\x7e]*$/;

function parseIssueValue(value: string): Pick<CaaRecordFacts, 'issuer' | 'parameters' | 'parse_error'> {
  const [head = '', ...rest] = value.split(';');
  const issuer = head.trim();
  const parameters: Record<string, string> = {};
  if (issuer !== '' && !ISSUER.test(issuer))
    return { issuer: null, parameters, parse_error: `"${issuer}" is not a domain name` };
  // A single trailing ";" after the issuer (or alone) is allowed; empty parameters elsewhere are not.
  const params = rest.length === 1 && rest[0]!.trim() === '' ? [] : rest;
  for (const raw of params) {
    const eq = raw.indexOf('=');
    const tag = (eq < 0 ? raw : raw.slice(0, eq)).trim();
    const val = eq < 0 ? '' : raw.slice(eq + 1).trim();
    if (eq < 0 || !PARAM_TAG.test(tag) || !PARAM_VALUE.test(val)) {
      return { issuer: issuer || null, parameters, parse_error: `"${raw.trim()}" is not a tag=value parameter` };
    }
    parameters[tag.toLowerCase()] = val;
  }
  return { issuer: issuer === '' ? null : issuer.toLowerCase(), parameters, parse_error: null };
}

function iodefError(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a URL`;
  }
  return ['mailto:', 'http:', 'https:'].includes(url.protocol)
    ? null
    : `iodef scheme ${url.protocol} is not mailto, http or https`;
}

export function parseCaaRecord(record: { flags: number; tag: string; value: string }): CaaRecordFacts {
  const tag = record.tag.toLowerCase();
  const base = { flags: record.flags, critical: (record.flags & 128) !== 0, tag, value: record.value };
  if (tag === 'issue' || tag === 'issuewild') return { ...base, ...parseIssueValue(record.value) };
  return { ...base, issuer: null, parameters: {}, parse_error: tag === 'iodef' ? iodefError(record.value) : null };
}
