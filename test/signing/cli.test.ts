// The signing commands end to end: keys, certify and verify, against the fixture internet (an issuer site
// serving the JWK set, its DNS key anchor, and a subject domain publishing a certificate's anchor).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as certify } from '../../src/cli/certify.ts';
import { UsageError, type CliIo } from '../../src/cli/io.ts';
import { run as keys } from '../../src/cli/keys.ts';
import { run as verify } from '../../src/cli/verify.ts';
import { loadConfig, type Config } from '../../src/lib/config.ts';
import { evaluate, rulesOfTier, type Observations } from '../../src/engine/index.ts';
import { catalogue, SUITE_CACHE_DIR } from '../suite/ruleset.ts';
import { issuerAnchorRecord, zoneLine } from '../../src/signing/anchor.ts';
import { certificateText, issueCertificate } from '../../src/signing/certificate.ts';
import { buildJwks, loadJwks, type ServiceJwks } from '../../src/signing/jwks.ts';
import { loadSigningKey, type SigningKey } from '../../src/signing/keys.ts';
import type { Certificate } from '../../src/signing/payload.ts';
import { dnsTxtLookup } from '../../src/signing/txt-lookup.ts';
import { verifyCertificate } from '../../src/signing/verify.ts';
import { startWorld, type World } from '../world/index.ts';
import { reportFixture } from './fixtures.ts';
import { expectEvery } from '../helpers/every.ts';

const ISSUER = 'https://issuer.test';
/** Observed yesterday, so certificates issued here are valid now. */
const FRESH = new Date(Date.now() - 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const freshReport = (overrides: Parameters<typeof reportFixture>[0] = {}) =>
  reportFixture({ observed_at: FRESH, ...overrides });

let scratch: string;
let world: World;
let key: SigningKey;
let jwks: ServiceJwks;
/** Issued before the world starts (its base URL has no port), so the subject's zone can publish its anchor. */
let anchored: Certificate;
let config: Config;
/** A key the attacker holds, published by attacker.test as if it were an issuer. */
let attackerKey: SigningKey;

function capture(cfg: Config): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    config: cfg,
    out: () => out,
    err: () => err,
  };
}

function writeSite(sitesDir: string, name: string, spec: object): void {
  mkdirSync(path.join(sitesDir, name), { recursive: true });
  writeFileSync(path.join(sitesDir, name, 'site.yaml'), JSON.stringify(spec));
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'dvs-signing-cli-'));
  const dataDir = path.join(scratch, 'data');
  key = await loadSigningKey(dataDir);
  jwks = await loadJwks(dataDir);
  anchored = issueCertificate({ report: freshReport({ domain: 'subject.test' }), issuer: { baseUrl: ISSUER }, key });
  attackerKey = await loadSigningKey(path.join(scratch, 'attacker'));
  const sitesDir = path.join(scratch, 'sites');
  writeSite(sitesDir, 'attacker', {
    domain: 'attacker.test',
    https: { certificate: 'valid' },
    routes: {
      '/.well-known/jwks.json': {
        body: JSON.stringify(buildJwks(attackerKey.publicJwk, [])),
        headers: { 'content-type': 'application/jwk-set+json' },
      },
    },
    dns: {
      records: [
        { name: '_dvs-key', type: 'TXT', data: issuerAnchorRecord(attackerKey, 'https://attacker.test').value },
      ],
    },
  });
  writeSite(sitesDir, 'issuer', {
    domain: 'issuer.test',
    https: { certificate: 'valid' },
    routes: {
      '/.well-known/jwks.json': { body: JSON.stringify(jwks), headers: { 'content-type': 'application/jwk-set+json' } },
    },
    dns: { records: [{ name: '_dvs-key', type: 'TXT', data: issuerAnchorRecord(key, ISSUER).value }] },
  });
  writeSite(sitesDir, 'subject', {
    domain: 'subject.test',
    dns: { records: [{ name: '_agent-validation', type: 'TXT', data: anchored.payload.anchor.value }] },
  });
  world = await startWorld({ sitesDir });
  config = loadConfig({
    ...world.env,
    DVS_DATA_DIR: dataDir,
    DVS_CACHE_DIR: SUITE_CACHE_DIR,
    DVS_BASE_URL: `${ISSUER}:${world.httpsPort}`,
  });
});

afterAll(async () => {
  await world?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('dvs keys', () => {
  it('jwks prints the public JWK set', async () => {
    const io = capture(config);
    expect(await keys(['jwks'], io)).toBe(0);
    expect(JSON.parse(io.out())).toEqual(jwks);
    expect(io.out()).not.toContain('"d"');
  });

  it('anchor prints the issuer TXT record for the configured base URL', async () => {
    const io = capture(config);
    expect(await keys(['anchor'], io)).toBe(0);
    expect(io.out()).toBe(`_dvs-key.issuer.test. IN TXT "v=dvk1; kid=service-signing-key-v1; jkt=${key.thumbprint}"\n`);
  });

  it('refuses anything else with its usage', async () => {
    await expect(keys([], capture(config))).rejects.toThrow(UsageError);
    await expect(keys(['turn'], capture(config))).rejects.toThrow(/dvs keys jwks/);
    await expect(keys(['jwks', 'extra'], capture(config))).rejects.toThrow(UsageError);
  });
});

describe('dvs certify', () => {
  const observations: Observations = {
    target: { domain: 'subject.test', observed_at: FRESH },
    probes: {},
  };

  it('evaluates the full tier, signs, writes the certificate and prints the record to publish', async () => {
    const input = path.join(scratch, 'observations.json');
    const out = path.join(scratch, 'certified.json');
    writeFileSync(input, JSON.stringify(observations));
    const io = capture(config);
    expect(await certify([input, '--out', out], io)).toBe(0);

    const text = readFileSync(out, 'utf8');
    const cert = JSON.parse(text) as Certificate;
    const ruleset = catalogue();
    const report = evaluate(observations, ruleset, 'full');
    expect(cert.payload.results).toHaveLength(rulesOfTier(ruleset, 'full').length);
    expect(cert.payload).toMatchObject({
      domain: 'subject.test',
      verdict: report.verdict,
      score: report.score,
      evidence_digest: report.evidence_digest,
    });
    expect(cert.payload.issuer.base_url).toBe(config.baseUrl);
    const validity = { issuedAt: new Date(cert.payload.issued_at), lifetimeSeconds: 90 * 86_400 };
    expect(text).toBe(
      certificateText(issueCertificate({ report, issuer: { baseUrl: config.baseUrl }, key, validity })),
    );
    expect(Date.parse(cert.payload.expires_at) - Date.parse(FRESH)).toBe(90 * 86_400_000);
    expectEvery(await verifyCertificate(cert, { jwks }), (c) => c.ok, 'every check passes');

    expect(io.out()).toContain(`certificate ${cert.payload.id} for subject.test`);
    expect(io.out()).toContain(`verdict     ${report.verdict}`);
    expect(io.out()).toContain(zoneLine(cert.payload.anchor));
    expect(io.out()).toContain(`valid       ${cert.payload.issued_at} to ${cert.payload.expires_at}`);
  });

  it('signs for DVS_CERTIFICATE_LIFETIME, and refuses evidence older than it', async () => {
    const input = path.join(scratch, 'observations.json');
    const out = path.join(scratch, 'short.json');
    writeFileSync(input, JSON.stringify(observations));
    const shortLived = loadConfig({
      ...world.env,
      DVS_DATA_DIR: config.dataDir,
      DVS_CACHE_DIR: SUITE_CACHE_DIR,
      DVS_CERTIFICATE_LIFETIME: '30d',
    });
    expect(await certify([input, '--out', out], capture(shortLived))).toBe(0);
    const cert = JSON.parse(readFileSync(out, 'utf8')) as Certificate;
    expect(Date.parse(cert.payload.expires_at) - Date.parse(FRESH)).toBe(30 * 86_400_000);
    const tooShort = loadConfig({
      ...world.env,
      DVS_DATA_DIR: config.dataDir,
      DVS_CACHE_DIR: SUITE_CACHE_DIR,
      DVS_CERTIFICATE_LIFETIME: '12h',
    });
    const io = capture(tooShort);
    expect(await certify([input, '--out', path.join(scratch, 'stale.json')], io)).toBe(1);
    expect(io.err()).toMatch(/not signing: the observations of .* are older than the certificate lifetime \(43200 s\)/);
  });

  it('refuses evidence that does not match the observation schemas, and writes nothing', async () => {
    const input = path.join(scratch, 'bogus-observations.json');
    const out = path.join(scratch, 'never.json');
    writeFileSync(input, JSON.stringify({ ...observations, bogus: { x: 1 } }));
    const io = capture(config);
    expect(await certify([input, '--out', out], io)).toBe(1);
    expect(io.err()).toMatch(/not signing.*unknown observation namespace "bogus"/);
    expect(existsSync(out)).toBe(false);
  });

  it('needs one observations file and --out', async () => {
    await expect(certify(['obs.json'], capture(config))).rejects.toThrow(/--out/);
    await expect(certify(['--out', 'x.json'], capture(config))).rejects.toThrow(UsageError);
  });
});

describe('dvs verify', () => {
  const save = (name: string, text: string): string => {
    const file = path.join(scratch, name);
    writeFileSync(file, text);
    return file;
  };

  it('checks a certificate against a JWK set file', async () => {
    const jwksFile = save('jwks.json', JSON.stringify(jwks));
    const io = capture(config);
    expect(
      await verify([save('anchored.json', certificateText(anchored)), '--jwks', jwksFile, '--issuer', ISSUER], io),
    ).toBe(0);
    expect(
      io
        .out()
        .split('\n')
        .filter((l) => l.startsWith('✓'))
        .map((l) => l.split(':')[0]),
    ).toEqual(['✓ structure', '✓ id', '✓ anchor', '✓ issuer', '✓ validity', '✓ jws_header', '✓ signature']);
    expect(io.out()).toContain('valid: 7 checks passed');
  });

  it('fetches the keys over https and checks both DNS anchors on the configured resolver', async () => {
    const io = capture(config);
    const url = world.url('issuer', '/.well-known/jwks.json');
    expect(
      await verify([save('anchored.json', certificateText(anchored)), '--jwks', url, '--dns', '--issuer', ISSUER], io),
    ).toBe(0);
    expect(io.out()).toContain(`keys from ${url}`);
    expect(io.out()).toContain(
      `✓ subject_anchor: _agent-validation.subject.test TXT "${anchored.payload.anchor.value}"`,
    );
    expect(io.out()).toContain(
      `✓ issuer_anchor: _dvs-key.issuer.test TXT "v=dvk1; kid=service-signing-key-v1; jkt=${key.thumbprint}"`,
    );
    expect(io.out()).not.toContain('✗');
  });

  it('by default fetches the jwks_url the certificate names, and reports an unpublished subject anchor', async () => {
    const cert = issueCertificate({
      report: freshReport({ domain: 'subject.test', score: 50 }),
      issuer: { baseUrl: config.baseUrl },
      key,
    });
    const io = capture(config);
    expect(await verify([save('unanchored.json', certificateText(cert)), '--dns', '--offline'], io)).toBe(1);
    expect(io.out()).toContain(`keys from ${config.baseUrl}/.well-known/jwks.json`);
    expect(io.out()).toContain('✓ signature');
    expect(io.out()).toContain('✓ issuer_anchor');
    expect(io.out()).toContain(
      `✗ subject_anchor: no TXT record at _agent-validation.subject.test matches "${cert.payload.anchor.value}"`,
    );
    expect(io.out()).toContain('NOT valid: 1 of 9 checks failed');
  });

  it('fails an edited certificate', async () => {
    const edited = certificateText(anchored).replace('"score":92', '"score":99');
    const io = capture(config);
    expect(await verify([save('edited.json', edited), '--jwks', save('jwks.json', JSON.stringify(jwks))], io)).toBe(1);
    expect(io.out()).toMatch(/✗ signature: signature does not verify/);
    expect(io.out()).toMatch(/✗ id: /);
  });

  it('refuses keys from plain http, and says when the keys cannot be fetched', async () => {
    const file = save('anchored.json', certificateText(anchored));
    const plain = capture(config);
    expect(await verify([file, '--jwks', 'http://issuer.test/.well-known/jwks.json'], plain)).toBe(1);
    expect(plain.out()).toMatch(/^✗ jwks: .*only fetched over https/);
    const missing = capture(config);
    expect(
      await verify([file, '--jwks', `https://nowhere.test:${world.httpsPort}/.well-known/jwks.json`], missing),
    ).toBe(1);
    expect(missing.out()).toMatch(/^✗ jwks: /);
    const notFound = capture(config);
    expect(await verify([file, '--jwks', world.url('issuer', '/no-such-jwks.json')], notFound)).toBe(1);
    expect(notFound.out()).toMatch(/^✗ jwks: .*HTTP 404/);
  });

  it('reports a file that is not a certificate', async () => {
    const io = capture(config);
    expect(
      await verify([save('not-a-cert.json', '{"hello":1}'), '--jwks', save('jwks.json', JSON.stringify(jwks))], io),
    ).toBe(1);
    expect(io.out()).toMatch(/✗ structure: .*must have required property 'payload'/);
    const bare = capture(config);
    expect(await verify([save('not-a-cert.json', '{"hello":1}')], bare)).toBe(1);
    expect(bare.out()).toMatch(/✗ jwks: the certificate names no issuer; pass --jwks/);
    await expect(verify([save('broken.json', '{"payload":')], capture(config))).rejects.toThrow(UsageError);
    const cert = save('anchored.json', certificateText(anchored));
    await expect(verify([cert, '--jwks', path.join(scratch, 'no-such-jwks.json')], capture(config))).rejects.toThrow(
      UsageError,
    );
    const notKeys = capture(config);
    expect(await verify([cert, '--jwks', save('not-keys.json', '{"keys":{}}')], notKeys)).toBe(1);
    expect(notKeys.out()).toMatch(/✗ jwks: .*not-keys.json: not a JWK set/);
    await expect(verify([], capture(config))).rejects.toThrow(/dvs verify <certificate.json>/);
  });
});

describe('dvs verify checks validity (issue 10 item 1)', () => {
  const save = (name: string, text: string): string => {
    const file = path.join(scratch, name);
    writeFileSync(file, text);
    return file;
  };

  it('refuses an expired certificate with its date, unless --at asks about a moment it was valid', async () => {
    const old = issueCertificate({
      report: reportFixture({ domain: 'subject.test', observed_at: '2026-03-01T12:00:00Z' }),
      issuer: { baseUrl: ISSUER },
      key,
    });
    const file = save('old.json', certificateText(old));
    const keysFile = save('jwks.json', JSON.stringify(jwks));
    const args = [file, '--jwks', keysFile, '--issuer', ISSUER];
    const now = capture(config);
    expect(await verify(args, now)).toBe(1);
    expect(now.out()).toMatch(
      /✗ validity: expired on 2026-05-30T12:00:00Z \(checked at .*\); ask about an earlier moment with --at/,
    );
    const then = capture(config);
    expect(await verify([...args, '--at', '2026-04-01T00:00:00Z'], then)).toBe(0);
    expect(then.out()).toContain(
      '✓ validity: valid at 2026-04-01T00:00:00.000Z: issued 2026-03-01T12:00:00Z, expires 2026-05-30T12:00:00Z',
    );
    const before = capture(config);
    expect(await verify([...args, '--at', '2026-02-01'], before)).toBe(1);
    expect(before.out()).toContain('✗ validity: not yet issued at 2026-02-01T00:00:00.000Z');
    await expect(verify([...args, '--at', 'yesterday'], capture(config))).rejects.toThrow(/--at yesterday: expected/);
    await expect(verify([...args, '--at', '2026-02-31'], capture(config))).rejects.toThrow(UsageError);
  });
});

describe('dvs verify decides whom to trust (issue 13 item 1)', () => {
  const save = (name: string, text: string): string => {
    const file = path.join(scratch, name);
    writeFileSync(file, text);
    return file;
  };
  const forge = (baseUrl: string, verdict: 'CERTIFIED' | 'NOT_CONFORMANT' = 'CERTIFIED') =>
    certificateText(
      issueCertificate({
        report: freshReport({ domain: 'subject.test', verdict }),
        issuer: { baseUrl },
        key: attackerKey,
      }),
    );

  it('refuses a certificate whose issuer URL hides another host behind user-info, and fetches nothing', async () => {
    // Names localhost, reaches attacker.test: before the fix its key set was fetched and the forgery verified.
    const forged = save('forged-userinfo.json', forge(`https://localhost:19443@attacker.test:${world.httpsPort}`));
    const io = capture(config);
    expect(await verify([forged, '--dns'], io)).toBe(1);
    expect(io.out()).toMatch(
      /^✗ jwks: not fetched: https:\/\/localhost:19443@attacker.test:\d+ is not a trusted issuer/,
    );
    expect(io.out()).not.toContain('✓ signature');
    const trustingIt = capture(config);
    await expect(
      verify([forged, '--issuer', `https://localhost:19443@attacker.test:${world.httpsPort}`], trustingIt),
    ).rejects.toThrow(/--issuer .*not a plain https origin: it carries user-info/);
  });

  it('refuses a well-formed certificate from an issuer nobody trusted, even with its DNS anchor in place', async () => {
    const attacker = `https://attacker.test:${world.httpsPort}`;
    const forged = save('forged-plain.json', forge(attacker));
    const io = capture(config);
    expect(await verify([forged, '--dns'], io)).toBe(1);
    expect(io.out()).toContain(`✗ jwks: not fetched: ${attacker} is not a trusted issuer (trusted: ${config.baseUrl})`);
    // The same forgery with keys handed over by file still fails: the issuer is not on the trust list.
    const withKeys = capture(config);
    const keysFile = save('attacker-jwks.json', JSON.stringify(buildJwks(attackerKey.publicJwk, [])));
    expect(await verify([forged, '--jwks', keysFile], withKeys)).toBe(1);
    expect(withKeys.out()).toMatch(/✗ issuer: https:\/\/attacker.test:\d+ is not a trusted issuer/);
    expect(withKeys.out()).toContain('✓ signature');
  });

  it('trusts DVS_TRUSTED_ISSUERS, and --issuer in its place', async () => {
    const attacker = `https://attacker.test:${world.httpsPort}`;
    const forged = save('forged-plain.json', forge(attacker));
    const trusting = loadConfig({
      ...world.env,
      DVS_DATA_DIR: config.dataDir,
      DVS_TRUSTED_ISSUERS: `${ISSUER}, ${attacker}`,
    });
    expect(trusting.certificates.trustedIssuers).toEqual([ISSUER, attacker]);
    const io = capture(trusting);
    expect(await verify([forged, '--offline'], io)).toBe(0);
    expect(io.out()).toContain(`keys from ${attacker}/.well-known/jwks.json`);
    expect(await verify([forged, '--issuer', ISSUER], capture(trusting))).toBe(1);
    expect(await verify([forged, '--issuer', ISSUER, '--issuer', attacker, '--offline'], capture(config))).toBe(0);
    expect(() => loadConfig({ DVS_TRUSTED_ISSUERS: 'https://a.test/path' })).toThrow(
      /DVS_TRUSTED_ISSUERS: "https:\/\/a.test\/path" is not a plain https origin/,
    );
  });

  it('refuses a certificate that names a member twice (a second "verdict" before the real one)', async () => {
    const genuine = certificateText(
      issueCertificate({
        report: freshReport({ domain: 'subject.test', verdict: 'NOT_CONFORMANT', score: 10 }),
        issuer: { baseUrl: ISSUER },
        key,
      }),
    );
    const keysFile = save('jwks.json', JSON.stringify(jwks));
    expect(await verify([save('genuine.json', genuine), '--jwks', keysFile, '--issuer', ISSUER], capture(config))).toBe(
      0,
    );
    // JSON.parse keeps the last member, so this verified before: a reader sees CERTIFIED, the signature another.
    const doubled = genuine.replace('"payload":{', '"payload":{"verdict":"CERTIFIED",');
    const io = capture(config);
    expect(await verify([save('doubled.json', doubled), '--jwks', keysFile, '--issuer', ISSUER], io)).toBe(1);
    expect(io.out()).toMatch(/✗ structure: .*doubled.json: duplicate member name "verdict" at line 1, column \d+/);
    const doubledKeys = save('doubled-jwks.json', JSON.stringify(jwks).replace('"keys":', '"keys":[],"keys":'));
    const keysIo = capture(config);
    expect(await verify([save('genuine.json', genuine), '--jwks', doubledKeys, '--issuer', ISSUER], keysIo)).toBe(1);
    expect(keysIo.out()).toMatch(/✗ jwks: .*duplicate member name "keys"/);
  });
});

describe('dnsTxtLookup', () => {
  it('reads TXT records from the configured resolver, and null where a name has none', async () => {
    const lookup = dnsTxtLookup({ servers: config.net.dnsServers, timeoutMs: 2000 });
    expect(await lookup('_agent-validation.subject.test')).toEqual([[anchored.payload.anchor.value]]);
    expect(await lookup('subject.test')).toBeNull();
    expect(await lookup('_agent-validation.nowhere.test')).toBeNull();
  });

  it('throws when the resolver does not answer', async () => {
    const lookup = dnsTxtLookup({ servers: [world.env.DVS_WORLD_DEAD_DNS!], timeoutMs: 200 });
    await expect(lookup('_agent-validation.subject.test')).rejects.toThrow(/ETIMEOUT/);
  });
});
