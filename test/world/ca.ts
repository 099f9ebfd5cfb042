// The world's test PKI: a root CA, one intermediate and one leaf per HTTPS site, made fresh at every start and
// valid around the real current time. Only the root goes into DVS_EXTRA_CA, so a server that omits the
// intermediate fails validation exactly as it would on the internet.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, webcrypto } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

type CryptoKeyPair = webcrypto.CryptoKeyPair;
type Crypto = Parameters<typeof x509.cryptoProvider.set>[0];

export type KeyKind = 'ec-p256' | 'rsa-2048';
export type CertificateChoice = 'valid' | 'expired' | 'not-yet-valid' | 'wrong-name' | 'self-signed' | 'leaf-only';

/** What a TLS server needs: its private key and the certificates it sends, leaf first. */
export interface ServerCredentials {
  keyPem: string;
  certPem: string;
}

export interface LeafRequest {
  /** Stable label (the site name): seeds the serial number and names the cached RSA key. */
  label: string;
  names: string[];
  certificate: CertificateChoice;
  key: KeyKind;
  expiresInDays: number;
}

const DAY_MS = 86_400_000;
const EC: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
const EC_SIGN: webcrypto.EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };
const RSA: webcrypto.RsaHashedImportParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
/** A name no site uses, for the wrong-name certificate. */
export const WRONG_NAME = 'wrong-name.invalid';

const generateKeyPairAsync = promisify(generateKeyPair);

function pem(label: string, der: ArrayBuffer | Buffer): string {
  const b64 = Buffer.from(der as ArrayBuffer).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`;
}

/** Serial numbers derive from the label so the same site gets the same serial on every run. */
function serialFor(label: string): string {
  const hex = createHash('sha256').update(`dvs-world:${label}`).digest('hex').slice(0, 16);
  return `1${hex.slice(1)}`;
}

/** Whole seconds: certificates carry no milliseconds, and tests compare dates. */
function atSecond(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

async function ecKeys(): Promise<CryptoKeyPair> {
  return await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify']);
}

/**
 * RSA-2048 generation takes a noticeable fraction of a second, and many test files start a world, so RSA keys
 * are kept in the temp dir by label and reused (they protect nothing).
 */
async function rsaKeys(cacheDir: string, label: string): Promise<CryptoKeyPair> {
  const file = path.join(cacheDir, `rsa-2048-${label.replace(/[^a-z0-9.-]/gi, '_')}.pem`);
  let keyPem: string;
  try {
    keyPem = await readFile(file, 'utf8');
  } catch {
    const pair = await generateKeyPairAsync('rsa', { modulusLength: 2048 });
    keyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await mkdir(cacheDir, { recursive: true });
    // Parallel worlds may race on the same file: write aside, then rename atomically.
    const tmp = `${file}.${process.pid}.${Date.now()}`;
    await writeFile(tmp, keyPem, { mode: 0o600 });
    await rename(tmp, file);
  }
  const priv = createPrivateKey(keyPem);
  const pkcs8 = priv.export({ type: 'pkcs8', format: 'der' });
  const spki = createPublicKey(priv).export({ type: 'spki', format: 'der' });
  return {
    privateKey: await webcrypto.subtle.importKey('pkcs8', pkcs8, RSA, true, ['sign']),
    publicKey: await webcrypto.subtle.importKey('spki', spki, RSA, true, ['verify']),
  };
}

function signingAlgorithm(keys: CryptoKeyPair): webcrypto.Algorithm {
  return keys.privateKey.algorithm.name === 'ECDSA' ? EC_SIGN : RSA;
}

async function keyPem(keys: CryptoKeyPair): Promise<string> {
  return pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
}

export class TestCa {
  private constructor(
    readonly root: x509.X509Certificate,
    private readonly intermediateKeys: CryptoKeyPair,
    readonly intermediate: x509.X509Certificate,
    private readonly keyCacheDir: string,
  ) {}

  static async create(opts: { keyCacheDir?: string } = {}): Promise<TestCa> {
    const now = Date.now();
    const [rootKeys, intermediateKeys] = await Promise.all([ecKeys(), ecKeys()]);
    const root = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: 'CN=DVS World Test Root CA, O=DVS fixture internet',
      notBefore: atSecond(now - 2 * DAY_MS),
      notAfter: atSecond(now + 3650 * DAY_MS),
      keys: rootKeys,
      signingAlgorithm: EC_SIGN,
      extensions: [
        new x509.BasicConstraintsExtension(true, 1, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
      ],
    });
    const intermediate = await x509.X509CertificateGenerator.create({
      serialNumber: '02',
      subject: 'CN=DVS World Test Intermediate CA, O=DVS fixture internet',
      issuer: root.subject,
      notBefore: atSecond(now - 2 * DAY_MS),
      notAfter: atSecond(now + 1825 * DAY_MS),
      publicKey: intermediateKeys.publicKey,
      signingKey: rootKeys.privateKey,
      signingAlgorithm: EC_SIGN,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(intermediateKeys.publicKey),
        await x509.AuthorityKeyIdentifierExtension.create(rootKeys.publicKey),
      ],
    });
    return new TestCa(
      root,
      intermediateKeys,
      intermediate,
      opts.keyCacheDir ?? path.join(os.tmpdir(), 'dvs-world-keys'),
    );
  }

  /** The trust anchor to hand to clients (DVS_EXTRA_CA). */
  get rootPem(): string {
    return this.root.toString('pem') + '\n';
  }

  /** Makes the key and the chain a site's server presents for the requested certificate choice. */
  async issue(req: LeafRequest): Promise<ServerCredentials> {
    const keys = req.key === 'rsa-2048' ? await rsaKeys(this.keyCacheDir, req.label) : await ecKeys();
    const now = Date.now();
    let notBefore = now - DAY_MS;
    let notAfter = now + req.expiresInDays * DAY_MS;
    if (req.certificate === 'expired') {
      notBefore = now - 100 * DAY_MS;
      notAfter = now - 10 * DAY_MS;
    } else if (req.certificate === 'not-yet-valid') {
      notBefore = now + 10 * DAY_MS;
      notAfter = now + 100 * DAY_MS;
    }
    const names = req.certificate === 'wrong-name' ? [WRONG_NAME] : req.names;
    const selfSigned = req.certificate === 'self-signed';
    const usage =
      x509.KeyUsageFlags.digitalSignature | (req.key === 'rsa-2048' ? x509.KeyUsageFlags.keyEncipherment : 0);
    const extensions: x509.Extension[] = [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(usage, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: 'dns' as const, value }))),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ];
    const common = {
      serialNumber: serialFor(req.label),
      notBefore: atSecond(notBefore),
      notAfter: atSecond(notAfter),
    };
    const leaf = selfSigned
      ? await x509.X509CertificateGenerator.createSelfSigned({
          ...common,
          name: `CN=${names[0]}`,
          keys,
          signingAlgorithm: signingAlgorithm(keys),
          extensions,
        })
      : await x509.X509CertificateGenerator.create({
          ...common,
          subject: `CN=${names[0]}`,
          issuer: this.intermediate.subject,
          publicKey: keys.publicKey,
          signingKey: this.intermediateKeys.privateKey,
          signingAlgorithm: EC_SIGN,
          extensions: [
            ...extensions,
            await x509.AuthorityKeyIdentifierExtension.create(this.intermediateKeys.publicKey),
          ],
        });
    const sendsIntermediate = !selfSigned && req.certificate !== 'leaf-only';
    const chain = sendsIntermediate ? [leaf, this.intermediate] : [leaf];
    return { keyPem: await keyPem(keys), certPem: chain.map((c) => c.toString('pem') + '\n').join('') };
  }
}
