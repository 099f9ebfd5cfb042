// `dvs certificates status <id>` and `dvs certificates revoke <id> --reason <text>`: the operator's view of
// the certificates in the ledger (the data directory's SQLite file, or DVS_DATABASE_URL), and the one thing
// the operator may do to one after issuing it: withdraw it, saying why. Relying parties see the same status at
// GET /api/certificates/{id}/status.
import { parseArgs } from 'node:util';
import { openLedger } from '../payments/open-ledger.ts';
import { Certificates, RevocationError, type CertificateStatus } from '../service/certificates.ts';
import { UsageError, type CliIo } from './io.ts';

export const USAGE = 'dvs certificates status <id> | dvs certificates revoke <id> --reason <text>';

function print(status: CertificateStatus, io: CliIo): void {
  const lines = [
    `certificate ${status.id} for ${status.domain}`,
    `status      ${status.status}`,
    `issued      ${status.issued_at}`,
    `expires     ${status.expires_at ?? 'never'}`,
  ];
  if (status.revoked_at) lines.push(`revoked     ${status.revoked_at}: ${status.reason}`);
  if (status.superseded_by) lines.push(`superseded  by ${status.superseded_by}`);
  io.stdout.write(lines.join('\n') + '\n');
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' } } });
  const [action, id, ...rest] = positionals;
  if (id === undefined || rest.length > 0 || (action !== 'status' && action !== 'revoke')) throw new UsageError(USAGE);
  if (action === 'revoke' && values.reason === undefined) throw new UsageError(`revoke needs --reason; ${USAGE}`);
  const ledger = await openLedger(io.config);
  try {
    const certificates = new Certificates(ledger);
    const status =
      action === 'status' ? await certificates.status(id) : await certificates.revoke(id, values.reason ?? '');
    if (!status) {
      io.stderr.write(`dvs certificates: no certificate ${id} in the ledger\n`);
      return 1;
    }
    print(status, io);
    return 0;
  } catch (err) {
    if (err instanceof RevocationError) throw new UsageError(err.message);
    throw err;
  } finally {
    await ledger.close();
  }
}
