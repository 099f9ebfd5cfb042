// Which protocol versions the server accepts: one handshake per TLS version with min = max, and a hand-built
// SSL 3.0 ClientHello because OpenSSL 3 cannot speak SSL 3.0 at all.
import type { TlsObservations } from '../../src/lib/schema-types/observations/tls.ts';
import type { Net } from '../../src/net/types.ts';
import { buildClientHello, SSL3, SUITE_CLASSES } from './client-hello.ts';
import { acceptance, attempt, firstFailure, mapLimited, UNVERIFIED } from './handshake.ts';
import { rawHello, type RawResult } from './raw-exchange.ts';

/** The schema's `versions` facet (schemas/observations/tls.json). */
export type VersionFacts = NonNullable<TlsObservations['versions']>;

type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
const VERSIONS: [key: 'tls1_0' | 'tls1_1' | 'tls1_2' | 'tls1_3', version: TlsVersion][] = [
  ['tls1_0', 'TLSv1'],
  ['tls1_1', 'TLSv1.1'],
  ['tls1_2', 'TLSv1.2'],
  ['tls1_3', 'TLSv1.3'],
];

/** Security level 0 lets the local OpenSSL offer what the server might accept, so a refusal is the server's. */
const ANY_SUITE = 'ALL:@SECLEVEL=0';

/** SSL 3.0 is accepted only by a ServerHello that keeps version 3.0; an alert or a close is a refusal. */
export function ssl3Acceptance(result: RawResult): boolean | null {
  if ('error' in result) return null;
  const reply = result.reply;
  if (reply.kind === 'server_hello') return reply.version === SSL3;
  if (reply.kind === 'alert' || reply.kind === 'closed') return false;
  return null;
}

const accepted = (a: { outcome: string }): boolean => a.outcome === 'accepted';

export type VersionKey = 'ssl3' | 'tls1_0' | 'tls1_1' | 'tls1_2' | 'tls1_3';

/**
 * Tries each version a rule of the run reads (`wanted`), every one by default. A refusal means something only
 * next to a version that worked on the same host (a positive control): when no modern version is among those
 * tried, a handshake at TLS 1.2 or later is that control, the run's default handshake when it makes one
 * (`modern` says whether it was accepted), so the legacy versions cost one handshake each.
 */
export async function collectVersions(
  net: Net,
  domain: string,
  signal: AbortSignal,
  wanted: (key: VersionKey) => boolean = () => true,
  modern?: Promise<boolean>,
): Promise<VersionFacts> {
  const tried = VERSIONS.filter(([key]) => wanted(key));
  const needsControl = !wanted('tls1_2') && !wanted('tls1_3');
  const hello = buildClientHello({
    version: SSL3,
    suites: SUITE_CLASSES.ssl3,
    servername: domain,
    seed: `ssl3:${domain}`,
  });
  const [attempts, control, ssl3Result] = await Promise.all([
    mapLimited(tried, 2, ([, v]) =>
      attempt(
        net,
        domain,
        { minVersion: v, maxVersion: v, ciphers: v === 'TLSv1.3' ? undefined : ANY_SUITE, ...UNVERIFIED, signal },
        () => true,
      ),
    ),
    needsControl
      ? (modern ?? attempt(net, domain, { minVersion: 'TLSv1.2', ...UNVERIFIED, signal }, () => true).then(accepted))
      : false,
    wanted('ssl3') ? rawHello(net, domain, hello, signal) : null,
  ]);
  const facts: VersionFacts = {
    reachable: false,
    error: null,
    ssl3: ssl3Result ? ssl3Acceptance(ssl3Result) : null,
    tls1_0: null,
    tls1_1: null,
    tls1_2: null,
    tls1_3: null,
  };
  tried.forEach(([key], i) => (facts[key] = acceptance(attempts[i]!)));
  if (!control && !attempts.some((a) => a.outcome === 'accepted')) {
    for (const key of ['ssl3', 'tls1_0', 'tls1_1', 'tls1_2', 'tls1_3'] as const)
      if (facts[key] === false) facts[key] = null;
  }
  const ssl3Answered = ssl3Result !== null && !('error' in ssl3Result);
  facts.reachable = control || attempts.some((a) => a.outcome !== 'failed') || ssl3Answered;
  if (!facts.reachable) {
    const ssl3Error = ssl3Result && 'error' in ssl3Result ? ssl3Result.error : null;
    facts.error = firstFailure(attempts) ?? ssl3Error;
  }
  return facts;
}
