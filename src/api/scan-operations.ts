// The two operations as both surfaces see them: the same input checks, the same messages, the same ScanResult.
// REST turns an ApiError into its status and Error body; MCP turns it into a tool result with isError.
import { DomainError, normaliseDomain } from '../lib/domain-name.ts';
import { ScanDeadlineError } from '../engine/scan.ts';
import { PaymentRequiredError, type FullValidations } from '../service/full-validations.ts';
import { RateLimitedError, type QuickScans } from '../service/quick-scans.ts';
import type { ScanResult } from '../service/scan-result.ts';
import { ScansBusyError } from '../service/scan-slots.ts';
import { validationProblem, type ApiSchemaName } from './api-schemas.ts';
import { ApiError } from './errors.ts';
import { specialUseProblem } from './special-use-names.ts';

export interface ScanOperationDeps {
  quickScans: QuickScans;
  fullValidations: FullValidations;
  extraSuffixes: readonly string[];
}

export interface OperationOutcome {
  /** The domain as judged: normalised, in its ASCII form. */
  domain: string;
  result: ScanResult;
  /** The report (quick scan) or the certificate `{payload, jws}` (full validation); null when nothing was judged. */
  structured: Record<string, unknown> | null;
  cached: boolean;
}

/** Who is asking, as far as limits and error messages care. */
export interface Caller {
  /** The client key for rate limiting (the client address). */
  client: string;
  /** The Authorization header as sent (never used as a token; only to explain a 402). */
  authorization: string;
}

function validInput<T>(schema: ApiSchemaName, body: unknown): T {
  const problem = validationProblem(schema, body);
  if (problem) throw new ApiError(400, problem, '/docs/api#requests');
  return body as T;
}

function domainOf(input: string, extraSuffixes: readonly string[]): string {
  const specialUse = specialUseProblem(input, extraSuffixes);
  if (specialUse) throw new ApiError(400, `invalid domain: ${specialUse}`, '/docs/api#domains');
  try {
    return normaliseDomain(input, extraSuffixes).ascii;
  } catch (err) {
    if (err instanceof DomainError) throw new ApiError(400, `invalid domain: ${err.message}`, '/docs/api#domains');
    throw err;
  }
}

/** The 402 for a request without a token, saying so plainly when the token came in a header instead. */
function missingToken(authorization: string): ApiError {
  const hint = authorization
    ? ' A token in the Authorization header is never accepted (headers end up in logs and proxies); put it in the JSON body.'
    : ' Get one at /checkout.';
  return new ApiError(
    402,
    `payment_token is required in the request body: one token pays for one Full Validation.${hint}`,
    '/checkout',
  );
}

function deadlineError(err: ScanDeadlineError): ApiError {
  return new ApiError(
    504,
    `the scan did not finish within its ${err.deadlineMs} ms deadline; nothing was charged, try again later`,
    '/docs/api#deadlines',
  );
}

/** 503 with Retry-After: the service-wide bound on scans is reached (the token, if any, is untouched). */
function busyError(err: ScansBusyError): ApiError {
  return new ApiError(503, err.message, '/docs/api#limits', { 'Retry-After': String(err.retryAfterSeconds) }, 'busy');
}

export class ScanOperations {
  constructor(private readonly deps: ScanOperationDeps) {}

  /** A domain as the operations take it (normalised, ASCII), or the same 400 they give. */
  domain(input: string): string {
    return domainOf(input, this.deps.extraSuffixes);
  }

  async quickscan(body: unknown, caller: Caller): Promise<OperationOutcome> {
    const { domain: input } = validInput<{ domain: string }>('quickscan-request', body);
    const domain = domainOf(input, this.deps.extraSuffixes);
    try {
      const outcome = await this.deps.quickScans.run(domain, caller.client);
      return {
        domain,
        result: outcome.result,
        structured: outcome.report as unknown as Record<string, unknown> | null,
        cached: outcome.cached,
      };
    } catch (err) {
      if (err instanceof RateLimitedError) {
        throw new ApiError(429, err.message, '/docs/api#limits', { 'Retry-After': String(err.retryAfterSeconds) });
      }
      if (err instanceof ScanDeadlineError) throw deadlineError(err);
      if (err instanceof ScansBusyError) throw busyError(err);
      throw err;
    }
  }

  async fullvalidation(body: unknown, caller: Caller): Promise<OperationOutcome> {
    if (
      body !== null &&
      typeof body === 'object' &&
      !Array.isArray(body) &&
      (body as Record<string, unknown>).payment_token === undefined
    ) {
      throw missingToken(caller.authorization);
    }
    const input = validInput<{ domain: string; payment_token: string }>('fullvalidation-request', body);
    const domain = domainOf(input.domain, this.deps.extraSuffixes);
    try {
      const outcome = await this.deps.fullValidations.run(domain, input.payment_token);
      return {
        domain,
        result: outcome.result,
        structured: outcome.certificate as unknown as Record<string, unknown> | null,
        cached: outcome.replayed,
      };
    } catch (err) {
      if (err instanceof PaymentRequiredError) throw new ApiError(402, err.message, '/checkout');
      if (err instanceof ScanDeadlineError) throw deadlineError(err);
      if (err instanceof ScansBusyError) throw busyError(err);
      throw err;
    }
  }
}
