// The certificates this service issued: each byte for byte as first returned (JSON by default; a browser that
// prefers HTML gets the certificate page), its status (valid, expired, superseded or revoked), the evidence
// it was judged on, and the page of the report it was issued with.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { CertificateReports } from '../../service/certificate-report.ts';
import type { CertificateReader } from '../../service/certificate-view.ts';
import type { Certificates } from '../../service/certificates.ts';
import { certificatePage } from '../pages/certificate-page.ts';
import { certificateReportPage, reportPrunedPage } from '../pages/certificate-report-page.ts';
import { ApiError } from '../http/errors.ts';
import { pageErrors, prefersHtml } from '../pages/page-errors.ts';
import { sendPage } from '../pages/page-layout.ts';

const CERTIFICATE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const notIssued = (id: string) =>
  new ApiError(
    404,
    `no certificate with id ${JSON.stringify(id.slice(0, 128))} was issued by this service`,
    '/docs/api#certificates',
  );

function idOf(ctx: Context): string | null {
  const id = (ctx.params as { id?: string }).id ?? '';
  return CERTIFICATE_ID.test(id) ? id : null;
}

export interface CertificateSources {
  reader: CertificateReader;
  certificates: Certificates;
  reports: CertificateReports;
}

export function certificateRoutes({ reader, certificates, reports }: CertificateSources, baseUrl: string): Router {
  const router = new Router();
  const show = async (ctx: Context) => {
    ctx.vary('Accept');
    const id = idOf(ctx);
    const found = id === null ? null : await reader.byId(id);
    if (!found) throw notIssued((ctx.params as { id?: string }).id ?? '');
    if (prefersHtml(ctx)) return sendPage(ctx, certificatePage(found, baseUrl));
    ctx.type = 'application/json';
    ctx.body = found.body;
  };
  router.get('/api/certificates/:id', pageErrors(), show);
  router.get('/certificates/:id', pageErrors(), show);
  // A page whatever the Accept: the report as JSON is the Full Validation's answer (its structuredContent).
  router.get('/certificates/:id/report', pageErrors(), async (ctx) => {
    const id = idOf(ctx);
    const found = id === null ? null : await reports.byId(id);
    if (!found) throw notIssued(ctx.params.id ?? '');
    if (found.kind === 'pruned') return sendPage(ctx, reportPrunedPage(found.certificate), 410);
    sendPage(ctx, certificateReportPage(found));
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
    // Whether the evidence is served follows the certificate's status, which can change (a revocation): caches
    // must ask again, although the bytes themselves never change.
    ctx.set('Cache-Control', 'no-cache');
    if (evidence.kind === 'gone') {
      const { status } = evidence;
      const why =
        status.status === 'revoked'
          ? `the certificate was revoked (${status.reason ?? 'no reason'})`
          : 'it is kept while the certificate is valid';
      throw new ApiError(410, `the evidence of ${id} is no longer served: ${why}`, '/docs/api#certificates', {
        'Cache-Control': 'no-cache',
      });
    }
    // The canonical bytes themselves: their SHA-256 is the certificate's evidence_digest.
    ctx.type = 'application/json';
    ctx.body = evidence.bytes;
  });
  return router;
}
