// The two operations as both surfaces see them: the same input checks, the same messages, the same ScanResult
// (with its structuredContent). REST turns an ApiError into its status and Error body; MCP turns it into a tool
// result with isError and the same Error body as structuredContent. Each error a program may act on has a code.
import { BoundedCache } from '../../lib/bounded-cache.ts';
import { DomainError, normaliseDomain } from '../../lib/domain-name.ts';
import { ScanDeadlineError } from '../../engine/observe-and-judge.ts';
import { PaymentRequiredError, type FullValidations } from '../../service/full-validations.ts';
import { RateLimitedError, type QuickScans } from '../../service/quick-scans.ts';
import type { ProgressListener } from '../../service/scanner.ts';
import { withStructuredContent, type ScanResult } from '../../service/scan-result.ts';
import { ScansBusyError } from '../../service/scan-slots.ts';
import { validationProblem, type ApiSchemaName } from './api-schemas.ts';
import { ApiError } from '../http/errors.ts';
import { specialUseProblem } from './special-use-names.ts';

export interface ScanOperationDeps {
  quickScans: QuickScans;
  fullValidations: FullValidations;
  extraSuffixes: readonly string[];
  /** False while the instance takes no new scans (it is shutting down): they are refused as busy. */
  accepting?: () => boolean;
}

export interface OperationOutcome {
  /** The domain as judged: normalised, in its ASCII form. */
  domain: string;
  /** The summary, the canonical JSON, and the report or certificate (or the Error) as structuredContent. */
  result: ScanResult;
  cached: boolean;
}

/** How long a client told `busy` should wait before trying again. */
export const BUSY_RETRY_S = 5;

const busy = (message: string) =>
  new ApiError(503, message, '/docs/api#error-codes', { 'Retry-After': String(BUSY_RETRY_S) }, 'busy');

/** Who is asking, as far as limits and error messages care. */
export interface Caller {
  /** The client key for rate limiting (the client address). */
  client: string;
  /** The Authorization header as sent (never used as a token; only to explain a 402). */
  authorization: string;
  /** The origin of the caller's key directory when its Web Bot Auth signature verified: its own budget. */
  verifiedAgent?: string | null;
}

function validInput<T>(schema: ApiSchemaName, body: unknown): T {
  const problem = validationProblem(schema, body);
  if (!problem) return body as T;
  // When a well-formed domain in its place would make the body valid, the domain itself is what is wrong.
  const input = body as Record<string, unknown> | null;
  const onlyDomain =
    typeof input?.domain === 'string' && validationProblem(schema, { ...input, domain: 'example.com' }) === null;
  throw new ApiError(400, problem, '/docs/api#requests', {}, onlyDomain ? 'invalid_domain' : undefined);
}

export function domainOf(input: string, extraSuffixes: readonly string[]): string {
  const specialUse = specialUseProblem(input, extraSuffixes);
  if (specialUse) throw new ApiError(400, `invalid domain: ${specialUse}`, '/docs/api#domains', {}, 'invalid_domain');
  try {
    return normaliseDomain(input, extraSuffixes).ascii;
  } catch (err) {
    if (err instanceof DomainError)
      throw new ApiError(400, `invalid domain: ${err.message}`, '/docs/api#domains', {}, 'invalid_domain');
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
    {},
    'payment_required',
  );
}

function paymentError(err: PaymentRequiredError): ApiError {
  switch (err.reason) {
    case 'in_progress':
      return busy(err.message);
    case 'expired':
      return new ApiError(402, err.message, '/checkout', {}, 'token_expired');
    case 'other_domain':
      return new ApiError(402, err.message, '/checkout', {}, 'token_used');
    default:
      return new ApiError(402, err.message, '/checkout', {}, 'payment_required');
  }
}

function deadlineError(err: ScanDeadlineError): ApiError {
  return new ApiError(
    504,
    `the scan did not finish within its ${err.deadlineMs} ms deadline; nothing was charged, try again later`,
    '/docs/api#deadlines',
    {},
    'timeout',
  );
}

/** 503 with Retry-After: the service-wide bound on scans is reached (the token, if any, is untouched). */
function busyError(err: ScansBusyError): ApiError {
  return new ApiError(503, err.message, '/docs/api#limits', { 'Retry-After': String(err.retryAfterSeconds) }, 'busy');
}

/** The domain string of a body that is a plain object (as JSON.parse makes) holding `domain` alone, else null. */
function onlyDomain(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Object.getPrototypeOf(body) !== Object.prototype) return null;
  const keys = Object.keys(body);
  const domain = (body as { domain?: unknown }).domain;
  return keys.length === 1 && keys[0] === 'domain' && typeof domain === 'string' ? domain : null;
}

/** Inputs whose normal form is remembered: the names callers ask about again and again. */
const KNOWN_INPUTS = { maxKeys: 10_000, ttlSeconds: 3600 };

export class ScanOperations {
  /** Normalising (IDNA, the special-use registry, the public suffix list) costs more than a cached answer. */
  private readonly known = new BoundedCache<string>(KNOWN_INPUTS);

  /**
   * Quick Scan inputs seen valid, with their normal form: a body that is only such a domain is valid again
   * whatever the schema says of any other body, so it skips the validator.
   */
  private readonly validQuickScanInputs = new BoundedCache<string>(KNOWN_INPUTS);

  constructor(private readonly deps: ScanOperationDeps) {}

  /** The normalised domain of a Quick Scan request body, or the 400 for a body the schema refuses. */
  private quickScanDomain(body: unknown): string {
    const input = onlyDomain(body);
    const seen = input === null ? undefined : this.validQuickScanInputs.get(input);
    if (seen !== undefined) return seen;
    const valid = validInput<{ domain: string }>('quickscan-request', body).domain;
    const domain = this.domain(valid);
    if (input !== null) this.validQuickScanInputs.set(input, domain);
    return domain;
  }

  /** A domain as the operations take it (normalised, ASCII), or the same 400 they give. */
  domain(input: string): string {
    let domain = this.known.get(input);
    if (domain === undefined) {
      domain = domainOf(input, this.deps.extraSuffixes);
      this.known.set(input, domain);
    }
    return domain;
  }

  /** Whether this instance still takes work (it is not shutting down). */
  private accepting(): boolean {
    return this.deps.accepting?.() ?? true;
  }

  /** A scan may start only on an instance that still takes work. */
  private admit(): void {
    if (!this.accepting())
      throw busy('this instance is shutting down and takes no new scans; retry, and another instance will answer');
  }

  async quickscan(body: unknown, caller: Caller, onProgress?: ProgressListener): Promise<OperationOutcome> {
    const domain = this.quickScanDomain(body);
    this.admit();
    try {
      const client = caller.verifiedAgent
        ? { verifiedAgent: caller.verifiedAgent, address: caller.client }
        : caller.client;
      const outcome = await this.deps.quickScans.run(domain, client, undefined, onProgress);
      return { domain, result: withStructuredContent(outcome.result, outcome.report), cached: outcome.cached };
    } catch (err) {
      if (err instanceof RateLimitedError) {
        const headers = { 'Retry-After': String(err.retryAfterSeconds) };
        throw new ApiError(429, err.message, '/docs/api#limits', headers, 'rate_limited');
      }
      if (err instanceof ScanDeadlineError) throw deadlineError(err);
      if (err instanceof ScansBusyError) throw busyError(err);
      throw err;
    }
  }

  async fullvalidation(body: unknown, caller: Caller, onProgress?: ProgressListener): Promise<OperationOutcome> {
    if (
      body !== null &&
      typeof body === 'object' &&
      !Array.isArray(body) &&
      (body as Record<string, unknown>).payment_token === undefined
    ) {
      throw missingToken(caller.authorization);
    }
    const input = validInput<{ domain: string; payment_token: string }>('fullvalidation-request', body);
    const domain = this.domain(input.domain);
    this.admit();
    try {
      const outcome = await this.deps.fullValidations.run(domain, input.payment_token, undefined, onProgress);
      const result = withStructuredContent(outcome.result, outcome.document);
      return { domain, result, cached: outcome.replayed };
    } catch (err) {
      if (err instanceof PaymentRequiredError) throw paymentError(err);
      if (err instanceof ScanDeadlineError) throw deadlineError(err);
      if (err instanceof ScansBusyError) throw busyError(err);
      throw err;
    }
  }
}
