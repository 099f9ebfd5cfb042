// The certificates this service issued: each byte for byte as first returned, its status (valid, expired,
// superseded or revoked), and the evidence it was judged on.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { PaymentGate } from '../payments/gate.ts';
import type { Certificates } from '../service/certificates.ts';
import { ApiError } from './errors.ts';

const CERTIFICATE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const notIssued = (id: string) =>
  new ApiError(
    404,
    `no certificate with id ${JSON.stringify(id.slice(0, 128))} was issued by this service`,
    '/docs/api',
  );

function idOf(ctx: Context & { params: Record<string, string | undefined> }): string | null {
  const id = ctx.params.id ?? '';
  return CERTIFICATE_ID.test(id) ? id : null;
}

export function certificateRoutes(gate: Pick<PaymentGate, 'certificate'>, certificates: Certificates): Router {
  const router = new Router();
  router.get('/api/certificates/:id', async (ctx) => {
    const id = idOf(ctx);
    const stored = id === null ? null : await gate.certificate(id);
    if (!stored) throw notIssued(ctx.params.id ?? '');
    ctx.type = 'application/json';
    ctx.body = stored.body;
  });
  router.get('/api/certificates/:id/status', async (ctx) => {
    const id = idOf(ctx);
    const status = id === null ? null : await certificates.status(id);
    if (!status) throw notIssued(ctx.params.id ?? '');
    // A status changes (expiry, revocation, a newer certificate): caches must ask again.
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = status;
  });
  router.get('/api/certificates/:id/evidence', async (ctx) => {
    const id = idOf(ctx);
    const evidence = id === null ? null : await certificates.evidence(id);
    if (!evidence) throw notIssued(ctx.params.id ?? '');
    if (evidence.kind === 'gone')
      throw new ApiError(
        410,
        `the evidence of ${id} is no longer kept: it is kept while the certificate is valid`,
        '/docs/api',
      );
    // The canonical bytes themselves: their SHA-256 is the certificate's evidence_digest.
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=3600, immutable');
    ctx.body = evidence.bytes;
  });
  return router;
}
