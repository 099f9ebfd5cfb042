// Requests over one HTTP/2 connection, with node:http2 framing the protocol. undici speaks HTTP/2 too, but it
// reads Node's combined header object, which joins repeated fields with commas and keeps only the first line of
// fields Node deems single-valued: two Strict-Transport-Security lines, or two Content-Types, would reach the
// rules as one. Here every field line reaches the caller as the host sent it (the stream's raw header list).
import http2 from 'node:http2';
import type { Readable } from 'node:stream';
import type { Socket } from 'node:net';
import { NetError } from './types.ts';

export interface HopRequest {
  /** Path and query. */
  path: string;
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  signal: AbortSignal;
}

export interface HopResponse {
  statusCode: number;
  /** Lower-case names; a field sent on several lines has one value per line. */
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export interface H2Connection {
  request(req: HopRequest): Promise<HopResponse>;
  /** Ends the connection and every stream on it. */
  destroy(): void;
}

/** Request fields that are connection-specific in HTTP/1.1 and malformed in HTTP/2 (RFC 9113 section 8.2.2). */
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);
/** Flow-control windows as undici sets them: Node's 64 KiB default holds a large body to one window per round trip. */
const STREAM_WINDOW_BYTES = 256 * 1024;
const CONNECTION_WINDOW_BYTES = 512 * 1024;
/**
 * Node refuses a header block of more lines than this (128 by default). It buffers a whole block before the byte
 * limit can be checked, so the line count is what bounds that buffer.
 */
const MAX_HEADER_LINES = 256;

/** Bytes of a raw header list as HTTP/1.1 would spell it (`name: value` and CRLF per line). */
function headerBytes(raw: readonly string[]): number {
  let bytes = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) bytes += raw[i]!.length + raw[i + 1]!.length + 4;
  return bytes;
}

/**
 * The raw header list `[name, value, name, value...]` as lines per field, pseudo-headers left out. The record has
 * no prototype: a host may name a field `constructor` or `__proto__`.
 */
function fieldLines(raw: readonly string[]): Record<string, string | string[]> {
  const headers = Object.create(null) as Record<string, string | string[]>;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.startsWith(':')) continue;
    const known = headers[name];
    const value = raw[i + 1]!;
    if (known === undefined) headers[name] = value;
    else if (Array.isArray(known)) known.push(value);
    else headers[name] = [known, value];
  }
  return headers;
}

/** A stream the host refused before processing it (RFC 9113 section 8.7): safe to send again. */
class RefusedStream extends Error {}

/** Sends one request as a stream of `session`. */
function send(session: http2.ClientHttp2Session, origin: URL, req: HopRequest, maxHeaderBytes: number) {
  return new Promise<HopResponse>((resolve, reject) => {
    const fields: http2.OutgoingHttpHeaders = {
      ':method': req.method,
      ':path': req.path,
      ':scheme': 'https',
      ':authority': origin.host,
    };
    for (const [name, value] of Object.entries(req.headers))
      if (!CONNECTION_SPECIFIC.has(name) && name !== 'host') fields[name] = value;
    // A session that can take no more streams throws here, which rejects the promise.
    const stream = session.request(fields, { endStream: req.body === null, signal: req.signal });
    stream.once('error', (err: Error) =>
      reject(stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM ? new RefusedStream(err.message) : err),
    );
    // Node passes the raw header list as a third argument (documented from Node 22; Node 20 passes it too).
    stream.once('response', (headers: http2.IncomingHttpStatusHeader, _flags: number, raw: string[]) => {
      // Node does not hold a host to the header list size it announced: the limit is kept here.
      if (headerBytes(raw) > maxHeaderBytes) {
        stream.destroy();
        return reject(new NetError('headers_too_large', `response headers larger than ${maxHeaderBytes} bytes`));
      }
      resolve({ statusCode: Number(headers[':status']), headers: fieldLines(raw), body: stream });
    });
    if (req.body !== null) stream.end(req.body);
  });
}

/**
 * Opens HTTP/2 over `socket`, a TLS connection to `origin` whose ALPN chose h2. `onGone` runs once the connection
 * can take no new streams (the host sent GOAWAY, or it closed or failed), so the caller opens another.
 */
export function openH2Connection(
  origin: URL,
  socket: Socket,
  opts: { maxHeaderBytes: number; onGone: () => void },
): H2Connection {
  const session = http2.connect(origin, {
    createConnection: () => socket,
    maxHeaderListPairs: MAX_HEADER_LINES,
    settings: { enablePush: false, initialWindowSize: STREAM_WINDOW_BYTES, maxHeaderListSize: opts.maxHeaderBytes },
  });
  // A connection the scan closed at once (one set up only for its handshake) is gone by the time it says so.
  session.once('connect', () => {
    if (!session.destroyed) session.setLocalWindowSize(CONNECTION_WINDOW_BYTES);
  });
  // Requests go out at once, as a browser's do, before the host's first SETTINGS say how many streams it takes at
  // a time; those it refuses for that are sent again once it has said, and then wait their turn.
  const settled = new Promise<void>((resolve) => session.once('remoteSettings', () => resolve()));
  // A failing connection fails its streams, which report it to their requests.
  session.on('error', () => undefined);
  let gone = false;
  const leave = (): void => {
    if (gone) return;
    gone = true;
    opts.onGone();
  };
  session.once('goaway', leave);
  session.once('close', leave);
  // Like undici's idle connections, an idle session does not keep the process alive; one waiting for an answer does.
  let open = 0;
  session.unref();
  const tracked = async (req: HopRequest): Promise<HopResponse> => {
    if (open++ === 0) session.ref();
    try {
      const response = await send(session, origin, req, opts.maxHeaderBytes);
      response.body.once('close', () => {
        if (--open === 0) session.unref();
      });
      return response;
    } catch (err) {
      if (--open === 0) session.unref();
      throw err;
    }
  };

  return {
    async request(req) {
      try {
        return await tracked(req);
      } catch (err) {
        if (!(err instanceof RefusedStream)) throw err;
        await settled;
        return tracked(req);
      }
    },
    destroy: () => session.destroy(),
  };
}
