// `dvs verify` against a service running on this machine (issue 9 item 5): its base URL is
// https://localhost:<port>, which the scanner's guarded resolver (the fixture internet's DNS here) answers
// NXDOMAIN. A verifier reaching an issuer it trusts is not a scan, so it gets there all the same.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.ts';
import { run as certificatesCli } from '../../src/cli/certificates.ts';
import { run as logCli } from '../../src/cli/log.ts';
import { run as verify } from '../../src/cli/verify.ts';
import { signTreeHead, type TreeHead } from '../../src/signing/tree-head.ts';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { validationProblem } from '../../src/api/operations/api-schemas.ts';
import { Certificates } from '../../src/service/certificates.ts';
import { certificateText, issueCertificate } from '../../src/signing/certificate.ts';
import { loadSigningKey } from '../../src/signing/keys.ts';
import { SQLITE_FILE } from '../../src/payments/open-ledger.ts';
import { sqliteEvidence } from '../../src/payments/sqlite-evidence.ts';
import type { Certificate } from '../../src/signing/payload.ts';
import type { Config } from '../../src/lib/config.ts';
import { startInProcess, startPaymentsWorld, type InProcessService } from '../payments/service.ts';
import { stringMatching } from '../helpers/typed-json.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fetch as undiciFetch } from 'undici';

let scratch: string;
let world: Awaited<ReturnType<typeof startPaymentsWorld>>;
let local: InProcessService;
let certificateFile: string;
let first: Certificate;

/** A Full Validation of good.test, paid with a fresh token: the certificate text. */
/** A certificate as a Full Validation's structuredContent holds it: the leaf, with the proof beside it as `log`. */
async function validate(): Promise<string> {
  const [issued] = await local.payments.ledger.issue({ source: 'test' });
  const outcome = await local.client.rest('good.test', issued!.token);
  expect(outcome.error).toBeNull();
  const certificate = JSON.parse(outcome.certificate!) as Certificate;
  return JSON.stringify(outcome.proof ? { ...certificate, log: JSON.parse(outcome.proof) as unknown } : certificate);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

function capture(config: Config): CliIo & { out: () => string } {
  let out = '';
  return { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true }, config, out: () => out };
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'dvs-local-issuer-'));
  world = await startPaymentsWorld();
  local = await startInProcess(world, path.join(scratch, 'data'), { DVS_PORT: String(await freePort()) });
  const text = await validate();
  first = JSON.parse(text) as Certificate;
  certificateFile = path.join(scratch, 'good.json');
  writeFileSync(certificateFile, text);
}, 120_000);

afterAll(async () => {
  await local?.stop();
  await world?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('dvs verify against a local service', () => {
  it('fetches the key set from https://localhost:<port>, which the scanning resolver does not know', async () => {
    const { config } = local;
    expect(config.baseUrl).toMatch(/^https:\/\/localhost:\d+$/);
    expect(config.net.dnsServers).toEqual(world.env.DVS_DNS_SERVERS!.split(','));
    const io = capture(config);
    expect(await verify([certificateFile], io)).toBe(0);
    expect(io.out()).toContain(`keys from ${config.baseUrl}/.well-known/jwks.json`);
    expect(io.out()).toContain(`✓ issuer: ${config.baseUrl} (trusted)`);
    expect(io.out()).toMatch(/valid: \d+ checks passed/);
  });

  it('asks the issuer for the status, and skips it with --offline', async () => {
    const io = capture(local.config);
    expect(await verify([certificateFile], io)).toBe(0);
    expect(io.out()).toContain(
      `✓ status: valid according to ${local.config.baseUrl}/api/certificates/${first.payload.id}/status`,
    );
    const offline = capture(local.config);
    expect(await verify([certificateFile, '--offline'], offline)).toBe(0);
    expect(offline.out()).not.toContain('status');
  });

  it('still refuses it when the user trusts another issuer only', async () => {
    const io = capture(local.config);
    expect(await verify([certificateFile, '--issuer', 'https://dvs.example.net'], io)).toBe(1);
    expect(io.out()).toContain(`✗ jwks: not fetched: ${local.config.baseUrl} is not a trusted issuer`);
  });
});

describe('certificate status (issue 10 item 3)', () => {
  it('answers valid, then superseded once a newer certificate exists, then revoked with reason and time', async () => {
    const id = first.payload.id;
    const valid = await local.client.call('GET', `/api/certificates/${id}/status`);
    expect(valid.status).toBe(200);
    expect(JSON.parse(valid.text) as unknown).toMatchObject({
      id,
      domain: 'good.test',
      status: 'valid',
      issued_at: stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      expires_at: first.payload.expires_at,
    });

    const second = JSON.parse(await validate()) as Certificate;
    const certificates = new Certificates(local.payments.ledger);
    expect((await certificates.current('good.test'))!.certificate.payload.id).toBe(second.payload.id);
    expect(validationProblem('certificate-status', JSON.parse(valid.text))).toBeNull();
    const superseded = JSON.parse((await local.client.call('GET', `/api/certificates/${id}/status`)).text) as unknown;
    expect(superseded).toMatchObject({ status: 'superseded', superseded_by: second.payload.id });
    const io = capture(local.config);
    expect(await verify([certificateFile], io)).toBe(1);
    expect(io.out()).toContain(`✗ status: superseded by ${second.payload.id}`);
    expect(await verify([certificateFile, '--at', new Date().toISOString()], capture(local.config))).toBe(0);

    const revoke = capture(local.config);
    expect(
      await certificatesCli(['revoke', id, '--reason', 'the site was found serving a different host'], revoke),
    ).toBe(0);
    expect(revoke.out()).toMatch(
      /status {6}revoked\nissued .*\nexpires .*\nrevoked {5}\S+: the site was found serving a different host/,
    );
    const revoked = JSON.parse((await local.client.call('GET', `/api/certificates/${id}/status`)).text) as unknown;
    expect(validationProblem('certificate-status', revoked)).toBeNull();
    expect(validationProblem('certificate-status', superseded)).toBeNull();
    expect(revoked).toMatchObject({ status: 'revoked', reason: 'the site was found serving a different host' });
    const after = capture(local.config);
    expect(await verify([certificateFile], after)).toBe(1);
    expect(after.out()).toMatch(/✗ status: revoked on \S+: the site was found serving a different host/);
    const status = capture(local.config);
    expect(await certificatesCli(['status', second.payload.id], status)).toBe(0);
    expect(status.out()).toContain('status      valid');
  }, 120_000);

  it('answers 404 for an id it never issued, and the CLI says so', async () => {
    const res = await local.client.call('GET', '/api/certificates/dvc_0123/status');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({
      error: 'no certificate with id "dvc_0123" was issued by this service',
    });
    let err = '';
    const io = { ...capture(local.config), stderr: { write: (t: string) => (err += t) } };
    expect(await certificatesCli(['status', 'dvc_0123'], io)).toBe(1);
    expect(err).toContain('no certificate dvc_0123 in the ledger');
    await expect(certificatesCli(['revoke', 'dvc_0123'], io)).rejects.toThrow(/revoke needs --reason/);
    await expect(certificatesCli(['revoke', 'dvc_0123', '--reason', '  '], io)).rejects.toThrow(/needs a reason/);
  });
});

describe('evidence anyone can re-judge (issue 10 item 2)', () => {
  /** A certificate signed with the service's key and stored in its ledger beside the given evidence. */
  async function plant(payloadEdit: (p: Certificate['payload']) => void, evidence: Buffer): Promise<string> {
    const report = { ...current.payload, tier: 'full', results: current.payload.results.map((r) => ({ ...r })) };
    payloadEdit(report as Certificate['payload']);
    const key = await loadSigningKey(local.config.dataDir);
    const cert = issueCertificate({
      report,
      issuer: { baseUrl: local.config.baseUrl },
      key,
      validity: { issuedAt: new Date(current.payload.issued_at), lifetimeSeconds: 90 * 86_400 },
    });
    const ledgerFile = path.join(local.config.dataDir, SQLITE_FILE);
    const expiresAt = Date.parse(cert.payload.expires_at);
    // The evidence first, as the ledger commits it (src/payments/sqlite-evidence.ts).
    const files = sqliteEvidence(ledgerFile);
    files.store({ certificateId: cert.payload.id, expiresAt, evidence: gzipSync(evidence) });
    files.close();
    const db = new Database(ledgerFile);
    db.prepare('INSERT INTO certificates (id, domain, body, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
      cert.payload.id,
      'planted.test',
      certificateText(cert),
      0,
      expiresAt,
    );
    db.close();
    const file = path.join(scratch, `${cert.payload.id}.json`);
    writeFileSync(file, certificateText(cert));
    return file;
  }

  let evidence: Buffer;
  // The first certificate was revoked above: a standing one is re-judged.
  let current: Certificate;
  let currentFile: string;
  beforeAll(async () => {
    const text = await validate();
    current = JSON.parse(text) as Certificate;
    currentFile = path.join(scratch, 'current.json');
    writeFileSync(currentFile, text);
  }, 60_000);

  it('serves the canonical observations whose SHA-256 is evidence_digest', async () => {
    const res = await local.client.get(`/api/certificates/${current.payload.id}/evidence`);
    expect(res.status).toBe(200);
    // Served while the certificate stands, which can change: not `immutable` (issue 31 item 12).
    expect(res.headers['cache-control']).toBe('no-cache');
    evidence = Buffer.from(res.text, 'utf8');
    expect(createHash('sha256').update(evidence).digest('hex')).toBe(current.payload.evidence_digest);
    expect((JSON.parse(res.text) as { target: { domain: string } }).target.domain).toBe('good.test');
    expect((await local.client.call('GET', '/api/certificates/dvc_0123/evidence')).status).toBe(404);
  });

  it('is no longer served once the certificate is revoked, as the docs say', async () => {
    const res = await local.client.get(`/api/certificates/${first.payload.id}/evidence`);
    expect(res.status).toBe(410);
    expect(res.headers['cache-control']).not.toMatch(/immutable|max-age/);
    expect((JSON.parse(res.text) as { error: string }).error).toMatch(
      /was revoked \(the site was found serving a different host\)/,
    );
  });

  it('dvs verify --reevaluate judges it again and finds the same outcomes byte for byte', async () => {
    const io = capture(local.config);
    await verify([currentFile, '--reevaluate'], io);
    expect(io.out()).toMatch(/✓ evidence: \d+ bytes, SHA-256 [0-9a-f]{64} as the certificate names/);
    expect(io.out()).toMatch(
      /✓ reevaluation: ruleset \S+ gives the same \d+ outcomes and verdict \w+ and score \d+, byte for byte/,
    );
  });

  it('compares the score only when the certificate was scored by this engine', async () => {
    const older = await plant((p) => {
      p.engine = 'dvs-engine/1.0';
      p.score = p.score === 100 ? 97 : 100;
    }, evidence);
    const io = capture(local.config);
    // A planted certificate is not in the log, so verify exits 1 either way: the reevaluation line is the test.
    await verify([older, '--reevaluate'], io);
    expect(io.out()).toMatch(
      /✓ reevaluation: .* \(its score \d+ is dvs-engine\/1.0's formula, this dvs has dvs-engine\/2.0's: not compared\)/,
    );
    const rescored = await plant((p) => (p.score = p.score === 100 ? 97 : 100), evidence);
    const differs = capture(local.config);
    await verify([rescored, '--reevaluate'], differs);
    expect(differs.out()).toMatch(/✗ reevaluation: judged again, the evidence gives: score \d+ -> \d+/);
  });

  it('fails evidence that is not what the certificate names, a changed outcome, and another ruleset', async () => {
    const swapped = await plant((p) => (p.score = p.score === 0 ? 1 : p.score - 1), Buffer.from('{"target":{}}'));
    const io = capture(local.config);
    expect(await verify([swapped, '--reevaluate', '--offline'], io).catch((e: Error) => e.message)).toMatch(
      /--reevaluate fetches the evidence from the issuer/,
    );
    const digest = capture(local.config);
    await verify([swapped, '--reevaluate'], digest);
    expect(digest.out()).toMatch(/✗ evidence: its SHA-256 is [0-9a-f]{64}, the certificate names [0-9a-f]{64}/);

    const flipped = await plant((p) => {
      const r = p.results.find((x) => x.outcome === 'pass')!;
      r.outcome = 'fail';
    }, evidence);
    const changed = capture(local.config);
    expect(await verify([flipped, '--reevaluate'], changed)).toBe(1);
    expect(changed.out()).toContain('✓ evidence');
    expect(changed.out()).toMatch(/✗ reevaluation: judged again, the evidence gives: [a-z0-9_.]+: fail -> pass/);

    const otherRuleset = await plant((p) => (p.ruleset = { version: '0.0.1', digest: '0'.repeat(64) }), evidence);
    const refused = capture(local.config);
    expect(await verify([otherRuleset, '--reevaluate'], refused)).toBe(1);
    expect(refused.out()).toMatch(
      /✗ reevaluation: not judged: the certificate names ruleset 0.0.1 \(digest 0{64}\), this dvs has/,
    );
  });
});

describe('the transparency log (issue 10 item 4)', () => {
  const save = (name: string, value: unknown) => {
    const file = path.join(scratch, name);
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return file;
  };
  const sth = async (): Promise<string> => {
    const io = capture(local.config);
    expect(await logCli(['sth'], io)).toBe(0);
    return io.out();
  };

  it('gives an MCP client the certificate exactly as the log holds it, the same bytes again, its proof beside it', async () => {
    const fetchWithCa = ((url: string | URL, init?: RequestInit) =>
      undiciFetch(url, { ...(init as object), dispatcher: local.client.agent })) as unknown as typeof fetch;
    const client = new Client({ name: 'dvs-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${local.client.url}/mcp`), { fetch: fetchWithCa }));
    try {
      const [issued] = await local.payments.ledger.issue({ source: 'test' });
      const args = { domain: 'good.test', payment_token: issued!.token };
      const callValidation = async () =>
        (await client.callTool({ name: 'service_fullvalidation', arguments: args })) as CallToolResult;
      const answer = await callValidation();
      const [, leaf, proof] = answer.content as { text: string }[];
      const certificate = JSON.parse(leaf!.text) as Certificate;
      expect(certificate.log).toBeUndefined();
      expect(leaf!.text).toBe((await local.client.get(`/api/certificates/${certificate.payload.id}`)).text);
      const inclusion = JSON.parse(proof!.text) as NonNullable<Certificate['log']>;
      expect(validationProblem('log-inclusion', inclusion)).toBeNull();
      expect(inclusion.certificate_id).toBe(certificate.payload.id);
      const structured = answer.structuredContent as { certificate: Certificate };
      expect(structured.certificate).toEqual({ ...certificate, log: inclusion });
      // The log grows; the same token then gives the same certificate bytes and a proof against the newer head.
      await validate();
      const again = (await callValidation()).content as { text: string }[];
      expect(again[1]!.text).toBe(leaf!.text);
      const newer = JSON.parse(again[2]!.text) as NonNullable<Certificate['log']>;
      expect(newer.tree_size).toBeGreaterThan(inclusion.tree_size);
    } finally {
      await client.close();
    }
  });

  it('answers a Full Validation with the inclusion proof that dvs verify checks offline and online', async () => {
    const text = await validate();
    const cert = JSON.parse(text) as Certificate;
    expect(validationProblem('log-inclusion', cert.log)).toBeNull();
    expect(cert.log!.tree_size).toBeGreaterThan(1);
    expect(cert.log!.leaf_index).toBe(cert.log!.tree_size - 1);
    // The leaf is the stored body: what GET /api/certificates/{id} serves, byte for byte.
    const stored = await local.client.call('GET', `/api/certificates/${cert.payload.id}`);
    expect(stored.text).toBe(certificateText(cert));
    const file = save('logged.json', text);

    const offline = capture(local.config);
    expect(await verify([file, '--offline'], offline)).toBe(0);
    expect(offline.out()).toMatch(
      new RegExp(
        `✓ inclusion: leaf ${cert.log!.leaf_index} of the log, in the tree head of size ${cert.log!.tree_size} \\(\\S+\\) signed by service-signing-key-v1`,
      ),
    );
    const online = capture(local.config);
    expect(await verify([file], online)).toBe(0);
    expect(online.out()).toMatch(/✓ log: leaf \d+ of the log, in the tree head of size \d+/);
  }, 60_000);

  it('fails a proof with a changed hash, or a head whose root was changed after signing', async () => {
    const cert = JSON.parse(await validate()) as Certificate;
    const path0 = cert.log!.inclusion_path[0]!;
    const flipped = {
      ...cert,
      log: {
        ...cert.log!,
        inclusion_path: [(path0[0] === '0' ? '1' : '0') + path0.slice(1), ...cert.log!.inclusion_path.slice(1)],
      },
    };
    const io = capture(local.config);
    expect(await verify([save('flipped.json', flipped), '--offline'], io)).toBe(1);
    expect(io.out()).toContain(
      `✗ inclusion: leaf ${cert.log!.leaf_index} does not lead to the root of the signed tree head`,
    );
    const root = cert.log!.tree_head.root_hash;
    const reheaded = {
      ...cert,
      log: {
        ...cert.log!,
        tree_head: { ...cert.log!.tree_head, root_hash: root.slice(0, -1) + (root.endsWith('0') ? '1' : '0') },
      },
    };
    const bad = capture(local.config);
    expect(await verify([save('reheaded.json', reheaded), '--offline'], bad)).toBe(1);
    expect(bad.out()).toMatch(/✗ inclusion: tree head of size \d+: signature does not verify/);
  }, 60_000);

  it('dvs log audit checks that a later head extends an earlier one, and catches a forked head', async () => {
    const older = save('old-sth.json', await sth());
    await validate();
    const newerHead = await sth();
    const newer = save('new-sth.json', newerHead);
    const audit = capture(local.config);
    expect(await logCli(['audit', older, newer], audit)).toBe(0);
    expect(audit.out()).toMatch(
      /✓ consistency: the tree of (\d+) extends the tree of \d+ \(\d+ hashes\)\nconsistent\n$/,
    );
    expect(await logCli(['audit', newer, older], capture(local.config))).toBe(1);

    // A head signed with the service's own key but over another root: a log that showed someone else a fork.
    const key = await loadSigningKey(local.config.dataDir);
    const head = JSON.parse(newerHead) as TreeHead;
    const forked = signTreeHead({ ...head, root_hash: createHash('sha256').update('fork').digest('hex') }, key);
    const caught = capture(local.config);
    expect(await logCli(['audit', older, save('forked-sth.json', forked)], caught)).toBe(1);
    expect(caught.out()).toContain('✗ consistency: the proof does not lead from the old root to the new one');
    expect(caught.out()).toMatch(/NOT consistent\n$/);
  }, 60_000);
});
