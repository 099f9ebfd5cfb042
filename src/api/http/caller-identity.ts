// Web Bot Auth on incoming requests, translated: a request that carries a Signature-Input is handed to the
// service's verifier with the URL as this service's public origin names it (so a signature made for another
// site does not verify here). A verified caller is marked for the rate limit and the request log, and told so
// in X-Verified-Agent (its key directory's origin); any other outcome is served exactly as an unsigned request,
// with the reason logged at most once a minute.
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { Logger } from '../../lib/log.ts';
import type { CallerIdentities } from '../../service/caller-identity.ts';
import type { RequestState } from './request-log.ts';
import { throttledWarning } from './throttled-warning.ts';

export const VERIFIED_AGENT_HEADER = 'X-Verified-Agent';

export function callerIdentity(
  identities: Pick<CallerIdentities, 'identify'>,
  baseUrl: string,
  log: Logger,
): Middleware<RequestState> {
  const warn = throttledWarning(log, 'caller signature not verified; served as unsigned');
  async function identifySigned(ctx: ParameterizedContext<RequestState>, next: Next): Promise<void> {
    const verdict = await identities
      // The path only (request-target.ts made every target one): the authority is always this service's.
      .identify({ method: ctx.method, url: baseUrl + ctx.path + ctx.search, headers: ctx.headers })
      .catch((err: unknown) => ({ status: 'invalid' as const, agent: null, reason: (err as Error).message }));
    if (verdict.status === 'verified') {
      ctx.state.verifiedAgent = verdict.agent;
      ctx.set(VERIFIED_AGENT_HEADER, verdict.agent);
      // A shared cache must not hand this answer, with its header, to another caller.
      ctx.vary('Signature');
    } else if (verdict.status === 'invalid') {
      warn({ req_id: ctx.state.requestId, agent: verdict.agent, reason: verdict.reason });
    }
    await next();
  }

  // An unsigned request pays nothing: its promise is next's own, with no async frame of this middleware's.
  return function identifyCaller(ctx, next): Promise<unknown> {
    return (ctx.req.headers['signature-input'] ?? '') === '' ? (next() as Promise<unknown>) : identifySigned(ctx, next);
  };
}
