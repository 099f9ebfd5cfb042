// Bounds on how long a client may hold a connection before its request is in: the TLS handshake, the request
// headers, then the body. A slow or silent client is cut off (408 once it is speaking HTTP) instead of holding a
// socket for minutes. The response side is not bounded here: scans have their own deadlines.
import type { ServerOptions } from 'node:https';
import type { Config } from '../lib/config.ts';

/** Node checks the header and request timers on this interval; a quarter of the shortest, at most a second. */
function checkingInterval(t: Config['clientTimeouts']): number {
  return Math.max(25, Math.min(1000, Math.floor(Math.min(t.headersMs, t.bodyMs) / 4)));
}

export function clientTimeoutOptions(t: Config['clientTimeouts']): ServerOptions {
  return {
    handshakeTimeout: t.handshakeMs,
    headersTimeout: t.headersMs,
    // Node's request timeout runs from the start of the request to its last byte: headers, then the body.
    requestTimeout: t.headersMs + t.bodyMs,
    connectionsCheckingInterval: checkingInterval(t),
  };
}
