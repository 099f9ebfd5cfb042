// CAA properties (RFC 8659 section 4): the tag and flags of section 4.1, the issuer and parameters of the
// issue-value grammar (section 4.2, shared by issuewild, RFC 9495's issuemail and the BIMI issuevmc), and the
// URL of iodef (section 4.4). Pure; which tags a CA understands is for the rules.
import type { CaaRecord } from '../../src/lib/schema-types/observations/dns.ts';
import { parseUri } from '../shared/uri.ts';
import { SPACE_OR_TAB, trimOf } from '../../src/lib/trim.ts';

export type CaaRecordFacts = CaaRecord;

/** Properties whose value follows issue-value. */
const ISSUE_VALUE_TAGS = new Set(['issue', 'issuewild', 'issuemail', 'issuevmc']);
/** label = (ALPHA / DIGIT) *( *("-") (ALPHA / DIGIT) ); the parameter tag has the same shape. */
const LABEL = '[A-Za-z0-9](?:-*[A-Za-z0-9])*';
const ISSUER = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
/** parameter = tag *WSP "=" *WSP value, value = *(%x21-3A / %x3C-7E). */
const PARAMETER = new RegExp(`^(${LABEL})[ \\t]*=[ \\t]*([\\x21-\\x3a\\x3c-\\x7e]*)$`);

type IssueFacts = Pick<CaaRecordFacts, 'issuer' | 'parameters' | 'parse_error'>;

/** issue-value = *WSP [issuer-domain-name *WSP] [";" *WSP [parameters *WSP]], parameters joined by *WSP ";" *WSP. */
function parseIssueValue(value: string): IssueFacts {
  const semicolon = value.indexOf(';');
  const issuer = trimOf(semicolon < 0 ? value : value.slice(0, semicolon), SPACE_OR_TAB);
  const parameters: Record<string, string> = {};
  if (issuer !== '' && !ISSUER.test(issuer))
    return { issuer: null, parameters, parse_error: `"${issuer}" breaks issuer-domain-name: not a domain name` };
  const rest = semicolon < 0 ? '' : trimOf(value.slice(semicolon + 1), SPACE_OR_TAB);
  for (const raw of rest === '' ? [] : rest.split(';').map((p) => trimOf(p, SPACE_OR_TAB))) {
    const m = PARAMETER.exec(raw);
    if (!m) {
      const error = `"${raw}" breaks parameter: not tag=value (a trailing ";" after parameters is not allowed)`;
      return { issuer: issuer.toLowerCase() || null, parameters, parse_error: error };
    }
    parameters[m[1]!.toLowerCase()] = m[2]!;
  }
  return { issuer: issuer === '' ? null : issuer.toLowerCase(), parameters, parse_error: null };
}

/** iodef-value = URI (RFC 3986); mailto:, http: and https: are the schemes CAs implement. */
function iodefError(value: string): string | null {
  const scheme = parseUri(value)?.scheme;
  if (scheme === undefined) return `"${value}" breaks iodef-value: not a URI`;
  return ['mailto', 'http', 'https'].includes(scheme) ? null : `iodef scheme ${scheme}: is not mailto, http or https`;
}

/** Section 4.1: a tag of letters and digits (at least one); flag bits other than issuer-critical (128) must be clear. */
function propertyError(flags: number, tag: string): string | null {
  if (!/^[A-Za-z0-9]+$/.test(tag)) return `"${tag}" breaks tag: letters and digits only`;
  return (flags & 127) === 0 ? null : `"${flags}" breaks flags: only bit 128 (issuer critical) may be set`;
}

export function parseCaaRecord(record: { flags: number; tag: string; value: string }): CaaRecordFacts {
  const tag = record.tag.toLowerCase();
  const base = { flags: record.flags, critical: (record.flags & 128) !== 0, tag, value: record.value };
  const property = propertyError(record.flags, record.tag);
  if (ISSUE_VALUE_TAGS.has(tag)) {
    const issue = parseIssueValue(record.value);
    return { ...base, ...issue, parse_error: property ?? issue.parse_error };
  }
  const parse_error = property ?? (tag === 'iodef' ? iodefError(record.value) : null);
  return { ...base, issuer: null, parameters: {}, parse_error };
}
