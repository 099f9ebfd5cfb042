// GET /api/certificates/{id}: a certificate issued earlier, byte for byte as it was first returned.
import Router from '@koa/router';
import type { PaymentGate } from '../payments/gate.ts';
import { ApiError } from './errors.ts';

const CERTIFICATE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function certificateRoutes(gate: Pick<PaymentGate, 'certificate'>): Router {
  const router = new Router();
  router.get('/api/certificates/:id', async (ctx) => {
    const id = ctx.params.id ?? '';
    const stored = CERTIFICATE_ID.test(id) ? await gate.certificate(id) : null;
    if (!stored)
      throw new ApiError(
        404,
        `no certificate with id ${JSON.stringify(id.slice(0, 128))} was issued by this service`,
        '/docs/api',
      );
    ctx.type = 'application/json';
    ctx.body = stored.body;
  });
  return router;
}
