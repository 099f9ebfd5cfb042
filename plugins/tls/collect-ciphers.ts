// Which classes of cipher suite the server accepts. Classes the local OpenSSL still implements are offered
// through node:tls one class at a time; the ones it dropped go out in hand-built ClientHellos.
import type { TlsObservations } from '../../src/lib/schema-types/observations/tls.ts';
import type { Net } from '../../src/net/types.ts';
import { buildClientHello, SUITE_CLASSES, TLS12 } from './client-hello.ts';
import { acceptance, attempt, firstFailure, mapLimited, UNVERIFIED, type Attempt } from './handshake.ts';
import { rawHello, type RawResult } from './raw-exchange.ts';

/** The schema's `ciphers` facet (schemas/observations/tls.json). */
export type CipherFacts = NonNullable<TlsObservations['ciphers']>;

/** OpenSSL cipher strings per class; security level 0 so the local policy never masks the server's answer. */
const OPENSSL_CLASSES = {
  aead: 'AESGCM:CHACHA20:AESCCM:ARIAGCM:!aNULL:!eNULL:!PSK:!SRP',
  cbc: 'ALL:!AESGCM:!CHACHA20:!AESCCM:!ARIAGCM:!aNULL:!eNULL:!PSK:!SRP',
  rsa_key_exchange: 'kRSA:!aNULL:!eNULL',
  ecdhe: 'kECDHE:!aNULL:!eNULL:!PSK',
  dhe: 'kDHE:!aNULL:!eNULL:!PSK',
} as const;

/** Mixed list for the order test: forward secret AEAD and CBC suites for both certificate types. */
const ORDER_TEST = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-AES128-SHA256',
  'ECDHE-RSA-AES128-SHA256',
  'ECDHE-ECDSA-AES128-SHA',
  'ECDHE-RSA-AES128-SHA',
  'AES128-GCM-SHA256',
  'AES128-SHA',
];

const RAW_CLASSES = ['triple_des', 'rc4', 'export', 'null_cipher', 'anonymous'] as const;

const UP_TO_TLS12 = { minVersion: 'TLSv1', maxVersion: 'TLSv1.2', ...UNVERIFIED } as const;

function ephemeralBits(info: object | null): number | null {
  const size = (info as { size?: unknown } | null)?.size;
  return typeof size === 'number' ? size : null;
}

/** A hand-built hello is accepted when the server picks one of the offered suites. */
export function rawAcceptance(result: RawResult, offered: readonly number[]): boolean | null {
  if ('error' in result) return null;
  const reply = result.reply;
  if (reply.kind === 'server_hello') return offered.includes(reply.suite) ? true : null;
  if (reply.kind === 'alert' || reply.kind === 'closed') return false;
  return null;
}

/**
 * Offering one list forwards and backwards separates server order from client order: a server that follows the
 * client picks different suites unless only one is acceptable, which a third handshake without that suite rules out.
 */
async function serverPreference(net: Net, domain: string, signal: AbortSignal): Promise<boolean | null> {
  const pick = (list: string[]): Promise<Attempt<string>> =>
    attempt(
      net,
      domain,
      { ...UP_TO_TLS12, ciphers: `${list.join(':')}:@SECLEVEL=0`, signal },
      (c) => c.socket.getCipher().name,
    );
  const [forward, backward] = await Promise.all([pick(ORDER_TEST), pick([...ORDER_TEST].reverse())]);
  if (forward.outcome !== 'accepted' || backward.outcome !== 'accepted') return null;
  if (forward.value !== backward.value) return false;
  const others = await pick(ORDER_TEST.filter((s) => s !== forward.value));
  return others.outcome === 'accepted' ? true : null;
}

export async function collectCiphers(net: Net, domain: string, signal: AbortSignal): Promise<CipherFacts> {
  const classes = Object.entries(OPENSSL_CLASSES) as [keyof typeof OPENSSL_CLASSES, string][];
  const [classAttempts, dheBits, sha1, ccm8, raw, preference] = await Promise.all([
    mapLimited(classes, 2, ([, ciphers]) =>
      attempt(net, domain, { ...UP_TO_TLS12, ciphers: `${ciphers}:@SECLEVEL=0`, signal }, () => true),
    ),
    attempt(net, domain, { ...UP_TO_TLS12, ciphers: `${OPENSSL_CLASSES.dhe}:@SECLEVEL=0`, signal }, (c) =>
      ephemeralBits(c.socket.getEphemeralKeyInfo()),
    ),
    attempt(
      net,
      domain,
      {
        minVersion: 'TLSv1.2',
        maxVersion: 'TLSv1.2',
        ciphers: 'ALL:@SECLEVEL=0',
        sigalgs: 'RSA+SHA1:ECDSA+SHA1',
        ...UNVERIFIED,
        signal,
      },
      () => true,
    ),
    attempt(
      net,
      domain,
      { minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3', ciphers: 'TLS_AES_128_CCM_8_SHA256', ...UNVERIFIED, signal },
      () => true,
    ),
    mapLimited(RAW_CLASSES, 2, (cls) =>
      rawHello(
        net,
        domain,
        buildClientHello({ version: TLS12, suites: SUITE_CLASSES[cls], servername: domain, seed: `${cls}:${domain}` }),
        signal,
      ),
    ),
    serverPreference(net, domain, signal),
  ]);
  const facts = {} as Record<keyof typeof OPENSSL_CLASSES, boolean | null>;
  classes.forEach(([key], i) => (facts[key] = acceptance(classAttempts[i]!)));
  const rawFacts = {} as Record<(typeof RAW_CLASSES)[number], boolean | null>;
  RAW_CLASSES.forEach((cls, i) => (rawFacts[cls] = rawAcceptance(raw[i]!, SUITE_CLASSES[cls])));
  const all = [...classAttempts, dheBits, sha1, ccm8];
  const reachable = all.some((a) => a.outcome !== 'failed') || raw.some((r) => !('error' in r));
  return {
    reachable,
    error: reachable ? null : firstFailure(all),
    ...facts,
    dhe_bits: dheBits.outcome === 'accepted' ? dheBits.value : null,
    ...rawFacts,
    sha1_signatures: acceptance(sha1),
    server_preference: preference,
    tls13_ccm8: acceptance(ccm8),
  };
}
