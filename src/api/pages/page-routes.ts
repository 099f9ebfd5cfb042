// Pages for people: the Quick Scan form's POST (the same operation, limits and cache as POST /api/quickscan,
// then a redirect), the report page of the latest Quick Scan (a GET never scans) and the badge.
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import type { CertificateReader } from '../../service/certificate-view.ts';
import type { DomainHistory } from '../../service/domain-history.ts';
import type { QuickScanReports } from '../../service/report-view.ts';
import { historySection } from './history-section.ts';
import { badgeSvg } from './badge.ts';
import { ApiError } from '../http/errors.ts';
import { BODY_LIMIT, lazyBodyParser } from '../http/json-body.ts';
import { pageErrors } from './page-errors.ts';
import { sendPage } from './page-layout.ts';
import { noReportPage, notJudgedPage, reportPage } from './report-page.ts';
import { fromOurOrigin } from '../http/same-origin.ts';
import { callerOf } from '../rest/scan-routes.ts';
import type { ScanOperations } from '../operations/scan-operations.ts';
import { UNICODE_WHITESPACE, trimOf } from '../../lib/trim.ts';

export interface PageDeps {
  ops: ScanOperations;
  reports: QuickScanReports;
  certificates: CertificateReader;
  /** The domain's Full Validations over time, shown on its report page. */
  history?: DomainHistory;
  baseUrl: string;
  /** How long Quick Scan results are kept (the report page says so when there is none). */
  quickScanTtlSeconds: number;
}

/** Badges are fetched by every view of a README: a few minutes of caching, revalidated by ETag. */
const BADGE_MAX_AGE = 300;

const formBody = lazyBodyParser({ enableTypes: ['form'], formLimit: BODY_LIMIT, encoding: 'utf-8' });

const formDomain = (ctx: Context): string => {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  return typeof body?.domain === 'string' ? trimOf(body.domain, UNICODE_WHITESPACE) : '';
};

function badgeRoute(deps: PageDeps) {
  return async function badge(ctx: Context) {
    const domain = deps.ops.domain((ctx.params as { domain?: string }).domain ?? '');
    const current = await deps.certificates.current(domain);
    const svg = current ? badgeSvg(current.certificate.payload.verdict, current.readiness?.level) : badgeSvg(null);
    ctx.set({
      'Cache-Control': `public, max-age=${BADGE_MAX_AGE}`,
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Access-Control-Allow-Origin': '*',
    });
    ctx.type = 'image/svg+xml';
    ctx.status = 200;
    ctx.body = svg;
    ctx.etag = createHash('sha256').update(svg).digest('base64url').slice(0, 27);
    if (ctx.fresh) {
      ctx.status = 304;
      ctx.body = null;
    }
  };
}

export function pageRoutes(deps: PageDeps): Router {
  const router = new Router();

  router.post('/report', pageErrors(formDomain), async (ctx) => {
    if (!fromOurOrigin(ctx, deps.baseUrl))
      throw new ApiError(403, 'a Quick Scan form must be sent from a page of this service', '/docs/api#pages');
    if (!ctx.is('application/x-www-form-urlencoded'))
      throw new ApiError(400, 'send the form as application/x-www-form-urlencoded', '/docs/api#pages');
    await formBody(ctx, async () => {});
    const outcome = await deps.ops.quickscan({ domain: formDomain(ctx) }, callerOf(ctx));
    ctx.status = 303;
    ctx.redirect(`/report/${encodeURIComponent(outcome.domain)}`);
  });

  router.get('/report/:domain', pageErrors(), async (ctx) => {
    const asked = ctx.params.domain ?? '';
    const domain = deps.ops.domain(asked);
    if (domain !== asked) {
      ctx.status = 301;
      return ctx.redirect(`/report/${encodeURIComponent(domain)}`);
    }
    const [latest, overview] = await Promise.all([deps.reports.latest(domain), deps.history?.overview(domain)]);
    const history = overview ? historySection(overview.entries, overview.lastChanges) : '';
    if (!latest)
      return sendPage(
        ctx,
        noReportPage(domain, Math.round(deps.quickScanTtlSeconds / 60), history),
        history ? 200 : 404,
      );
    sendPage(
      ctx,
      latest.kind === 'report' ? reportPage(latest.view, history) : notJudgedPage(domain, latest.text, history),
    );
  });

  router.get('/badge/:domain.svg', badgeRoute(deps));
  return router;
}
