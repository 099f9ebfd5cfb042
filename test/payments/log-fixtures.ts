// Certificates committed through the ledger the way a Full Validation commits them (token reserved, then
// committed with the certificate), so each lands in the transparency log in the issuing transaction.
import { createHash } from 'node:crypto';
import type { StoredCertificate } from '../../src/payments/gate.ts';
import { Ledger } from '../../src/payments/ledger.ts';
import type { LedgerStore } from '../../src/payments/store.ts';
import type { SigningKeySource } from '../../src/signing/key-store.ts';
import type { SigningKey } from '../../src/signing/keys.ts';

export const ledgerOver = (store: LedgerStore): Ledger =>
  new Ledger(store, { mode: 'test', tokenTtlSeconds: 3600, reservationLeaseSeconds: 60 });

/** A certificate id as the service makes them (dvc_ and 32 hex digits), from a label. */
export const idOf = (label: string): string => 'dvc_' + createHash('sha256').update(label).digest('hex').slice(0, 32);

/** Issues a token, reserves it for the certificate's domain and commits the certificate with it; returns the token. */
export async function commitWithNewToken(ledger: Ledger, certificate: StoredCertificate): Promise<string> {
  const { token } = (await ledger.issue({ source: 'test' }))[0]!;
  const held = await ledger.reserve(token, certificate.domain);
  if (held.kind !== 'reserved') throw new Error(`token not reserved: ${held.kind}`);
  await ledger.commit(token, held.reservationId, certificate);
  return token;
}

/** Issues a token and commits one certificate with it; returns the body (the log's leaf). */
export async function commitOne(ledger: Ledger, label: string): Promise<{ id: string; body: string }> {
  const domain = `${label.replace(/[^a-z0-9]/g, '-')}.test`;
  const id = idOf(label);
  const body = JSON.stringify({ payload: { id, domain }, jws: `sig-${label}` });
  await commitWithNewToken(ledger, { id, domain, body });
  return { id, body };
}

/** A signing key source that always gives `key` (the service's store reloads a rotated key; tests need no file). */
export const keySource = (key: SigningKey): Pick<SigningKeySource, 'current'> => ({ current: async () => key });

/**
 * Issues a token and commits the certificate `id` for the domain `<id>.test` with `extra` (its expiry, evidence,
 * report); returns the token.
 */
export const certifyWith = (ledger: Ledger, id: string, extra: Partial<StoredCertificate> = {}): Promise<string> =>
  commitWithNewToken(ledger, {
    id,
    domain: `${id}.test`,
    body: JSON.stringify({ payload: { id }, jws: 'sig' }),
    ...extra,
  });
