// The two DNS anchors of a certificate (docs/architecture.md section 3.5). The subject's: the domain owner publishes the
// certificate's id and digest under `_agent-validation.<domain>`, showing they accept it. The issuer's: the
// service publishes its key's RFC 7638 thumbprint under `_dvs-key.<issuer host>`, a second channel beside the
// HTTPS-served JWK set. Records are `;`-separated tag=value lists, read leniently about spacing because
// people type them into DNS consoles.
import { identityOf, type AnchorRecord, type CertificateCore, type CertificatePayload } from './payload.ts';
import { normaliseName } from '../lib/domain-name.ts';
import { SPACE_OR_TAB, trimOf } from '../lib/trim.ts';

const SUBJECT_ANCHOR_PREFIX = '_agent-validation.';
const ISSUER_ANCHOR_PREFIX = '_dvs-key.';

/** The record the domain owner publishes, derived from the payload's content (never from its `id` member). */
export function subjectAnchorRecord(payload: CertificateCore | CertificatePayload): AnchorRecord {
  const { id, digest } = identityOf(payload);
  return { name: SUBJECT_ANCHOR_PREFIX + payload.domain, type: 'TXT', value: `v=dv1; id=${id}; sha256=${digest}` };
}

/** The issuer's host: the name under which the service publishes its key anchor. */
function issuerHost(baseUrl: string): string {
  return normaliseName(new URL(baseUrl).hostname);
}

/** The record the service publishes for one signing key. */
export function issuerAnchorRecord(key: { kid: string; thumbprint: string }, baseUrl: string): AnchorRecord {
  return {
    name: ISSUER_ANCHOR_PREFIX + issuerHost(baseUrl),
    type: 'TXT',
    value: `v=dvk1; kid=${key.kid}; jkt=${key.thumbprint}`,
  };
}

/** The record as a zone-file line, ready to paste. */
export function zoneLine(record: AnchorRecord): string {
  return `${record.name}. IN ${record.type} "${record.value}"`;
}

/** Tags of a record value; null when it is not a tag list or names a tag twice. */
export function parseTags(value: string): Map<string, string> | null {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const item = trimOf(part, SPACE_OR_TAB);
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq <= 0) return null;
    const name = trimOf(item.slice(0, eq), SPACE_OR_TAB).toLowerCase();
    if (tags.has(name)) return null;
    tags.set(name, trimOf(item.slice(eq + 1), SPACE_OR_TAB));
  }
  return tags;
}

/**
 * Whether one of the TXT records at the anchor's name carries every tag of the expected value. A record
 * split into several strings (each at most 255 bytes) is read joined, as SPF and DKIM records are; tags the
 * expected value does not name are ignored, so later versions can add some.
 */
export function anchorPresent(records: string[][], expected: AnchorRecord): boolean {
  const want = parseTags(expected.value);
  if (want === null) throw new Error(`anchor value ${expected.value} is not a tag list`);
  return records.some((strings) => {
    const have = parseTags(strings.join(''));
    return have !== null && [...want].every(([tag, value]) => have.get(tag) === value);
  });
}
