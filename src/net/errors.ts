// Maps the errors of node:net, node:tls and undici onto NetError codes, keeping the original code as detail.
import { NetError, type NetErrorCode } from './types.ts';

const BY_CODE: Record<string, NetErrorCode> = {
  ECONNREFUSED: 'connect_refused',
  ECONNRESET: 'connect_error',
  EHOSTUNREACH: 'connect_error',
  ENETUNREACH: 'connect_error',
  EADDRNOTAVAIL: 'connect_error',
  EPIPE: 'connect_error',
  ETIMEDOUT: 'timeout',
  UND_ERR_SOCKET: 'connect_error',
  UND_ERR_CLOSED: 'connect_error',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_OVERFLOW: 'headers_too_large',
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  UND_ERR_ABORTED: 'aborted',
  ABORT_ERR: 'aborted',
};

/** OpenSSL and Node certificate/handshake error codes all mean the TLS layer failed. */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

export function toNetError(err: unknown, context: string): NetError {
  if (err instanceof NetError) return err;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = `${context}: ${typeof e?.message === 'string' ? e.message : String(err)}`;
  const mapped = Object.hasOwn(BY_CODE, code) ? BY_CODE[code] : undefined;
  if (mapped) return new NetError(mapped, message, code);
  if (TLS_CODE.test(code)) return new NetError('tls_error', message, code);
  if (code.startsWith('HPE_') || code.startsWith('UND_ERR_')) return new NetError('protocol_error', message, code);
  if (e?.cause !== undefined && e.cause !== err) return toNetError(e.cause, context);
  return new NetError('connect_error', message, code || undefined);
}
