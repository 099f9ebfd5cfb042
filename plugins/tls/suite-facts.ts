// Facts about a cipher suite read from its IANA name, so rules never parse suite names. TLS 1.3 suites name only
// the record protection: their key exchange is always ephemeral in a certificate handshake.

export type KeyExchange = 'ecdhe' | 'dhe' | 'rsa' | 'ecdh' | 'dh' | 'psk' | 'other';

export interface SuiteFacts {
  key_exchange: KeyExchange;
  forward_secret: boolean;
  aead: boolean;
}

const AEAD = /_(GCM|CCM|CCM_8|CHACHA20_POLY1305)(_|$)/;

function keyExchange(kx: string): KeyExchange {
  if (/^ECDHE(_|$)/.test(kx)) return 'ecdhe';
  if (/^DHE(_|$)/.test(kx)) return 'dhe';
  if (/^ECDH_/.test(kx)) return 'ecdh';
  if (/^DH_/.test(kx)) return 'dh';
  if (kx === 'RSA' || kx.startsWith('RSA_EXPORT')) return 'rsa';
  if (/^(RSA_)?PSK$/.test(kx)) return 'psk';
  return 'other';
}

/** Facts for an IANA suite name such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 or TLS_AES_128_GCM_SHA256. */
export function suiteFacts(iana: string): SuiteFacts {
  const aead = AEAD.test(iana);
  const withAt = iana.indexOf('_WITH_');
  if (withAt < 0) return { key_exchange: 'ecdhe', forward_secret: true, aead };
  const kx = keyExchange(iana.slice('TLS_'.length, withAt));
  // "anon" suites are ephemeral but unauthenticated; they still count as forward secret.
  return { key_exchange: kx, forward_secret: kx === 'ecdhe' || kx === 'dhe', aead };
}
