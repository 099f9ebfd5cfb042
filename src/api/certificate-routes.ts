// GET /api/certificates/{id} and GET /certificates/{id}: a certificate issued earlier. Programs get it byte for
// byte as it was first returned (JSON is the default); a browser that prefers HTML gets the certificate page.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { CertificateReader } from '../service/certificate-view.ts';
import { certificatePage } from './certificate-page.ts';
import { ApiError } from './errors.ts';
import { pageErrors, prefersHtml } from './page-errors.ts';
import { sendPage } from './page-layout.ts';

const CERTIFICATE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function certificateRoutes(certificates: CertificateReader, baseUrl: string): Router {
  const router = new Router();
  const show = async (ctx: Context) => {
    const id = (ctx.params as { id?: string }).id ?? '';
    ctx.vary('Accept');
    const found = CERTIFICATE_ID.test(id) ? await certificates.byId(id) : null;
    if (!found)
      throw new ApiError(
        404,
        `no certificate with id ${JSON.stringify(id.slice(0, 128))} was issued by this service`,
        '/docs/api#certificates',
      );
    if (prefersHtml(ctx)) return sendPage(ctx, certificatePage(found, baseUrl));
    ctx.type = 'application/json';
    ctx.body = found.body;
  };
  router.get('/api/certificates/:id', pageErrors(), show);
  router.get('/certificates/:id', pageErrors(), show);
  return router;
}
