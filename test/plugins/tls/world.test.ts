// The tls probe against the fixture internet: the facts each tls-* site exists to produce, and the good site
// passing every tls rule.
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateRule } from '../../../src/engine/evaluate.ts';
import { rulesReading, OBSERVED_AT, worldContext } from '../world-probe.ts';
import { provider } from '../../../plugins/tls/index.ts';
import { useWorld, type SharedWorld } from '../../suite/world.ts';
import type { TlsObservations } from '../../../src/lib/schema-types/observations/tls.ts';
import { facets } from '../../helpers/typed-json.ts';

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});

/** As the engine answers: a path under a needed one (`tls.versions.tls1_0` under `tls.versions`) is needed too. */
const withParents =
  (needs: (path: string) => boolean) =>
  (path: string): boolean =>
    needs(path) || (path.includes('.') && withParents(needs)(path.slice(0, path.lastIndexOf('.'))));

/** The facets the probe was asked for are the ones a test reads; the schema check comes with the type. */
async function scan(domain: string, needs: (path: string) => boolean = () => true): Promise<TlsObservations> {
  return facets('tls', await provider.collect(domain, worldContext(world.env, withParents(needs))), []);
}

describe('tls probe on the fixture internet', () => {
  it('good.test: modern, trusted and passes every tls rule', async () => {
    const tls = await scan('good.test');
    expect(tls.negotiated).toMatchObject({
      reachable: true,
      protocol: 'TLSv1.3',
      forward_secret: true,
      aead: true,
      alpn: 'h2',
    });
    expect(tls.versions).toEqual({
      reachable: true,
      error: null,
      ssl3: false,
      tls1_0: false,
      tls1_1: false,
      tls1_2: true,
      tls1_3: true,
    });
    expect(tls.certificate).toMatchObject({
      chain_verified: true,
      authorization_error: null,
      chain_reaches_anchor: true,
      anchor_public: false,
      hostname_match: true,
    });
    expect(tls.certificate!.leaf).toMatchObject({
      subject_cn: 'good.test',
      sans: ['good.test', 'www.good.test'],
      key_type: 'ec',
      key_curve: 'prime256v1',
      self_signed: false,
    });
    expect(tls.certificate!.chain.map((c) => c.trust_anchor)).toEqual([false, false, true]);
    expect(tls.ciphers).toMatchObject({
      aead: true,
      cbc: false,
      rsa_key_exchange: false,
      rc4: false,
      triple_des: false,
      export: false,
      null_cipher: false,
      anonymous: false,
      sha1_signatures: false,
      tls13_ccm8: false,
    });
    expect(tls.features).toMatchObject({
      hello_version: 'TLSv1.2',
      secure_renegotiation: true,
      extended_master_secret: true,
      compression: 'null',
    });
    expect(tls.ocsp).toMatchObject({ reachable: true, stapled: false });
    expect(tls.www).toMatchObject({ resolves: true, chain_verified: true, hostname_match: true });

    const doc = {
      target: { domain: 'good.test', observed_at: OBSERVED_AT },
      probes: { tls: { status: 'ok', ms: 0 } },
      tls,
    };
    const rules = rulesReading('tls');
    expect(rules.length).toBeGreaterThanOrEqual(40);
    const failing = rules.map((r) => evaluateRule(r, doc)).filter((r) => r.outcome === 'fail' || r.outcome === 'error');
    expect(failing).toEqual([]);
  });

  it('collects only the facets a run needs', async () => {
    const tls = await scan('good.test', (p) => p === 'tls.certificate');
    expect(Object.keys(tls)).toEqual(['certificate']);
  });

  it('tls-expired and tls-not-yet-valid: chain does not verify, dates say why', async () => {
    const expired = await scan('tls-expired.test', (p) => p === 'tls.certificate');
    expect(expired.certificate).toMatchObject({
      chain_verified: false,
      authorization_error: 'CERT_HAS_EXPIRED',
      hostname_match: true,
    });
    expect(Date.parse(expired.certificate!.leaf?.not_after ?? '')).toBeLessThan(Date.parse(OBSERVED_AT));
    const early = await scan('tls-not-yet-valid.test', (p) => p === 'tls.certificate');
    expect(early.certificate).toMatchObject({ chain_verified: false, authorization_error: 'CERT_NOT_YET_VALID' });
    expect(Date.parse(early.certificate!.leaf?.not_before ?? '')).toBeGreaterThan(Date.parse(OBSERVED_AT));
  });

  it('tls-expiring-soon: trusted but close to notAfter', async () => {
    const tls = await scan('tls-expiring-soon.test', (p) => p === 'tls.certificate');
    expect(tls.certificate).toMatchObject({ chain_verified: true });
    const days = (Date.parse(tls.certificate!.leaf?.not_after ?? '') - Date.parse(OBSERVED_AT)) / 86_400_000;
    expect(days).toBeLessThan(14);
  });

  it('tls-wrong-name: the chain verifies but neither name matches', async () => {
    const tls = await scan('tls-wrong-name.test', (p) => p === 'tls.certificate' || p === 'tls.www');
    expect(tls.certificate).toMatchObject({
      chain_verified: true,
      authorization_error: 'ERR_TLS_CERT_ALTNAME_INVALID',
      hostname_match: false,
    });
    expect(tls.www).toMatchObject({ resolves: true, chain_verified: true, hostname_match: false });
  });

  it('tls-self-signed: self-signed leaf, no anchor', async () => {
    const tls = await scan('tls-self-signed.test', (p) => p === 'tls.certificate');
    expect(tls.certificate).toMatchObject({
      chain_verified: false,
      authorization_error: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      chain_reaches_anchor: false,
      anchor_public: null,
    });
    expect(tls.certificate!.leaf?.self_signed).toBe(true);
  });

  it('tls-leaf-only: the intermediate is missing', async () => {
    const tls = await scan('tls-leaf-only.test', (p) => p === 'tls.certificate');
    expect(tls.certificate).toMatchObject({ chain_verified: false, chain_reaches_anchor: false });
    expect(tls.certificate!.leaf?.self_signed).toBe(false);
    expect(tls.certificate!.chain).toHaveLength(1);
  });

  it('tls-legacy: old versions, CBC, static RSA and SHA-1 signatures accepted', async () => {
    const tls = await scan('tls-legacy.test', (p) => ['tls.versions', 'tls.ciphers', 'tls.certificate'].includes(p));
    expect(tls.versions).toMatchObject({ ssl3: false, tls1_0: true, tls1_1: true, tls1_2: true, tls1_3: false });
    expect(tls.ciphers).toMatchObject({
      cbc: true,
      rsa_key_exchange: true,
      aead: true,
      sha1_signatures: true,
      anonymous: true,
    });
    expect(tls.certificate!.leaf).toMatchObject({ key_type: 'rsa', key_bits: 2048 });
  });

  it('tls-v12-only and tls-v13-only: one version each', async () => {
    const v12 = await scan('tls-v12-only.test', (p) => p === 'tls.versions' || p === 'tls.negotiated');
    expect(v12.versions).toMatchObject({ tls1_2: true, tls1_3: false, tls1_1: false });
    expect(v12.negotiated).toMatchObject({ protocol: 'TLSv1.2', key_exchange: 'ecdhe', forward_secret: true });
    const v13 = await scan('tls-v13-only.test', (p) => p === 'tls.versions' || p === 'tls.features');
    expect(v13.versions).toMatchObject({ tls1_2: false, tls1_3: true });
    expect(v13.features).toMatchObject({ reachable: true, hello_version: null, secure_renegotiation: null });
  });

  it('tls-no-h2: ALPN settles on http/1.1', async () => {
    const tls = await scan('tls-no-h2.test', (p) => p === 'tls.negotiated');
    expect(tls.negotiated).toMatchObject({ protocol: 'TLSv1.3', alpn: 'http/1.1' });
  });

  it('a name that does not resolve is a fact, not a throw', async () => {
    const tls = await scan('absent-tls-site.test');
    expect(tls.negotiated).toMatchObject({ reachable: false, error: 'dns_nxdomain', protocol: null });
    expect(tls.versions).toMatchObject({ reachable: false, tls1_0: null, tls1_3: null });
    expect(tls.certificate).toMatchObject({ reachable: false, leaf: null, chain: [] });
  });
});
