// Cached Quick Scans answered before Koa. A hit is the service's most frequent answer and the cheapest to make:
// no scan runs, no budget is counted (only scans that run count), and an unsigned caller has no identity to
// check. Koa's general machinery (a context per request, a dozen middleware frames, headers merged one by one)
// cost more than the answer itself, so a request of the usual shape is answered here with the headers and bytes
// the Koa route sends, request id, log line, metrics and signature included (test/api/quick-scan-lane.test.ts
// holds the two answers equal). Every other request goes to Koa: another shape, a signed caller, a body that is
// not a valid request, a domain not cached, an instance shutting down. The body is read once: one read here is
// handed over with the request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProxyTrust } from '../../lib/config.ts';
import { forwardedHop } from '../http/forwarded-client.ts';
import { handOverBody, plainLength, readPlainBody } from '../http/json-body.ts';
import { parseRequestJson } from '../http/request-json.ts';
import { msSince, requestIdOf, type RequestLineWriter } from '../http/request-log.ts';
import { contentDigest, type ResponseSigner } from '../http/response-signing.ts';
import type { ScanOperations } from '../operations/scan-operations.ts';
import { QUICK_SCAN_TYPE, quickScanBytes } from './scan-routes.ts';
import { SECURITY_HEADERS } from '../http/security-headers.ts';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface QuickScanLaneDeps {
  ops: Pick<ScanOperations, 'cachedQuickScan'>;
  signer: Pick<ResponseSigner, 'sign'>;
  /** The request log (null: its level leaves request lines out). */
  logLine: RequestLineWriter | null;
  /** Counts an answer in the request metrics, as the Koa app's counter does (absent: nothing is counted). */
  countAnswer?: (method: string, route: string, status: number) => void;
  /** The proxies whose forwarding headers name the client (null: none). */
  trustProxy: ProxyTrust | null;
}

const PATH = '/api/quickscan';

/** Every answer's fields between its request id and its own, in the order the Koa path writes them. */
const SHARED_FIELDS: readonly string[] = [
  ...SECURITY_HEADERS.flat(),
  'X-Cache',
  'hit',
  'Content-Type',
  QUICK_SCAN_TYPE,
  'Vary',
  'Accept-Encoding',
];

/**
 * The body's declared length when the lane may answer the request, else null: POST of a plain JSON body of
 * declared length to the exact path, from an unsigned caller, over HTTPS all the way (behind trusted proxies: as
 * the client's hop says). A malformed Forwarded header is left to Koa, which answers it.
 */
function usualLength(req: IncomingMessage, trustProxy: ProxyTrust | null): number | null {
  if (req.method !== 'POST' || req.url !== PATH) return null;
  const headers = req.headers;
  if (headers['content-type'] !== 'application/json') return null;
  if ((headers['signature-input'] ?? '') !== '') return null;
  const length = plainLength(headers);
  if (length === null || trustProxy === null) return length;
  try {
    return forwardedHop(req, trustProxy).proto === 'https' ? length : null;
  } catch {
    return null;
  }
}

/** The answer's fields and bytes. */
interface Answer {
  requestId: string;
  fields: string[];
  bytes: Buffer;
}

/** The HTTPS listener's handler: cached Quick Scans answered here, everything else by `koa`. */
export function quickScanLane(deps: QuickScanLaneDeps, koa: RequestHandler): RequestHandler {
  /** The cached answer to a request whose body is `body`, or null when there is none. */
  async function cachedAnswer(req: IncomingMessage, body: Promise<Buffer>): Promise<Answer | null> {
    const outcome = await deps.ops.cachedQuickScan(parseRequestJson((await body).toString('utf8')));
    if (outcome === null) return null;
    const made = quickScanBytes(outcome, req.headers['accept-encoding']);
    const bytes = Buffer.isBuffer(made.bytes) ? made.bytes : await made.bytes;
    const encoding = made.coding === 'identity' ? '' : made.coding;
    const digest = contentDigest(bytes);
    const signed = await deps.signer.sign(200, digest, QUICK_SCAN_TYPE, encoding);
    const requestId = requestIdOf(req);
    const fields = ['X-Request-Id', requestId, ...SHARED_FIELDS];
    if (encoding) fields.push('Content-Encoding', encoding);
    fields.push('Content-Length', String(bytes.length), 'Content-Digest', digest);
    fields.push('Signature-Input', signed.input, 'Signature', signed.signature);
    return { requestId, fields, bytes };
  }

  async function answer(req: IncomingMessage, res: ServerResponse, length: number): Promise<void> {
    const started = process.hrtime.bigint();
    const body = readPlainBody(req, length);
    let made: Answer | null = null;
    try {
      made = await cachedAnswer(req, body);
    } catch {
      // Koa meets the same refusal or failure, and answers it as it answers any.
    }
    if (made === null) {
      handOverBody(req, body);
      koa(req, res);
      return;
    }
    deps.logLine?.({ req_id: made.requestId, method: 'POST', path: PATH, status: 200, ms: msSince(started) });
    res.writeHead(200, made.fields).end(made.bytes);
    deps.countAnswer?.('POST', PATH, 200);
  }

  return (req, res) => {
    const length = usualLength(req, deps.trustProxy);
    if (length !== null) void answer(req, res, length);
    else koa(req, res);
  };
}
