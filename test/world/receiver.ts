// A receiving site (`receiver: true`): it records every request made to it and answers with a scripted sequence
// of statuses, so a test can watch what a sender delivers and how it reacts to failures.
import type { SiteRequest, SiteResponse } from './site-server.ts';

export interface ReceivedRequest {
  /** When the request arrived (ISO 8601). */
  at: string;
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body as UTF-8 text. */
  body: string;
}

/** Where the record is read; this request is not itself recorded. */
export const RECEIVED_PATH = '/_received';
/** Bodies beyond this are refused with 413 (and recorded without their body). */
const MAX_BODY_BYTES = 1024 * 1024;

export class Receiver {
  private received: ReceivedRequest[] = [];
  private statuses: number[] = [];

  /** The statuses of the next answers, in order; once they run out every answer is 200. */
  script(statuses: number[]): void {
    this.statuses = [...statuses];
  }

  /** Forgets what was received (the script stays). */
  clear(): void {
    this.received = [];
  }

  async answer(req: SiteRequest, res: SiteResponse): Promise<void> {
    const urlPath = req.url ?? '/';
    if (req.method === 'GET' && new URL(urlPath, 'http://x').pathname === RECEIVED_PATH) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return void res.end(JSON.stringify(this.received));
    }
    const body = await readBody(req);
    this.received.push({
      at: new Date().toISOString(),
      method: req.method ?? 'GET',
      path: urlPath,
      headers: { ...req.headers },
      body: body ?? '',
    });
    const status = body === null ? 413 : (this.statuses.shift() ?? 200);
    // A redirect names a path of its own, so a sender that follows redirects shows up in the record.
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
    if (status >= 300 && status < 400) headers.location = '/_redirected';
    res.writeHead(status, headers);
    res.end(`${status}\n`);
  }
}

/** The request's body as text, or null when it is larger than the receiver keeps. */
async function readBody(req: SiteRequest): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
