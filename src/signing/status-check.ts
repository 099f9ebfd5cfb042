// The online status check of `dvs verify`: asks the trusted issuer whether the certificate is still current
// (GET /api/certificates/{id}/status) and turns the answer into one check.
import type { IssuerClient } from './issuer-client.ts';
import type { Check } from './verify.ts';

/** A status document is a few hundred bytes. */
const MAX_STATUS_BYTES = 16 * 1024;

interface StatusDocument {
  id: string;
  status: 'valid' | 'expired' | 'superseded' | 'revoked';
  revoked_at?: string;
  reason?: string;
  report?: string;
  superseded_by?: string;
}

function readStatus(value: unknown, id: string): StatusDocument {
  const doc = value as Partial<StatusDocument> | null;
  if (typeof doc !== 'object' || doc === null || doc.id !== id)
    throw new Error(`the status document is not about ${id}`);
  if (!['valid', 'expired', 'superseded', 'revoked'].includes(String(doc.status)))
    throw new Error(`unknown status ${JSON.stringify(doc.status)}`);
  return doc as StatusDocument;
}

/**
 * Revoked fails (at a moment asked about with --at, only when revoked by then); superseded fails when asking
 * about now, since a newer certificate states the domain's current result; expiry is the validity check's.
 */
export async function statusCheck(client: IssuerClient, id: string, at: Date, asked: boolean): Promise<Check> {
  let doc: StatusDocument;
  try {
    doc = readStatus(await client.getJson(`/api/certificates/${encodeURIComponent(id)}/status`, MAX_STATUS_BYTES), id);
  } catch (err) {
    return { name: 'status', ok: false, detail: `the issuer's status could not be read: ${(err as Error).message}` };
  }
  const source = `${client.origin}/api/certificates/${id}/status`;
  if (doc.status === 'revoked') {
    const revokedAt = Date.parse(doc.revoked_at ?? '');
    if (!asked || !(revokedAt > at.getTime()))
      return {
        name: 'status',
        ok: false,
        detail: `revoked on ${doc.revoked_at}: ${doc.reason ?? ''}${doc.report ? `, found by ${doc.report}` : ''} (${source})`,
      };
    return {
      name: 'status',
      ok: true,
      detail: `not revoked at ${at.toISOString()} (revoked later, on ${doc.revoked_at})`,
    };
  }
  if (doc.status === 'superseded' && !asked)
    return {
      name: 'status',
      ok: false,
      detail: `superseded by ${doc.superseded_by}, a newer certificate for the domain (${source})`,
    };
  return { name: 'status', ok: true, detail: `${doc.status} according to ${source}` };
}
