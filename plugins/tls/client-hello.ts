// Hand-built ClientHello records for what node:tls cannot offer any more (SSL 3.0, RC4, 3DES, EXPORT, NULL,
// anonymous suites, TLS compression) and for ServerHello extensions Node does not expose. The probe reads only the
// server's first reply, so no key exchange happens and no cryptography is needed (RFC 5246 section 7.4.1.2).
import { createHash } from 'node:crypto';

export const SSL3 = 0x0300;
export const TLS12 = 0x0303;

export interface HelloOptions {
  version: typeof SSL3 | typeof TLS12;
  suites: readonly number[];
  /** SNI host name (TLS 1.2 hellos only). */
  servername: string;
  /** Offer DEFLATE before null compression, to see whether the server picks it. */
  offerCompression?: boolean;
  /** Seed for the 32 random bytes, so two scans send identical hellos. */
  seed: string;
}

/** Cipher suite code points grouped by the property a rule asks about (IANA TLS Cipher Suites registry). */
export const SUITE_CLASSES = {
  /** Offered in the SSL 3.0 hello: the suites an SSL 3.0 server would realistically pick. */
  ssl3: [0x002f, 0x0035, 0x000a, 0x0005, 0x0004, 0x0033, 0x0039, 0x0016, 0x0009],
  triple_des: [0x000a, 0x0016, 0x0013, 0xc012, 0xc008, 0x001b],
  rc4: [0x0005, 0x0004, 0xc011, 0xc007, 0x0018],
  export: [0x0003, 0x0006, 0x0008, 0x000b, 0x000e, 0x0011, 0x0014, 0x0017, 0x0019],
  null_cipher: [0x0001, 0x0002, 0x003b, 0xc006, 0xc010, 0x002c, 0x002d, 0x002e],
  anonymous: [0x0034, 0x003a, 0x006c, 0x006d, 0x00a6, 0x00a7, 0xc018, 0xc019, 0x0018, 0x001b],
  /** A mainstream TLS 1.2 offer, to read the ServerHello extensions of a normal handshake. */
  modern: [
    0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0x009e, 0x009f, 0xc009, 0xc013, 0xc00a, 0xc014, 0x009c, 0x009d,
    0x002f, 0x0035,
  ],
} as const satisfies Record<string, readonly number[]>;

const EXT_SERVER_NAME = 0x0000;
const EXT_SUPPORTED_GROUPS = 0x000a;
const EXT_EC_POINT_FORMATS = 0x000b;
const EXT_SIGNATURE_ALGORITHMS = 0x000d;
const EXT_EXTENDED_MASTER_SECRET = 0x0017;
const EXT_RENEGOTIATION_INFO = 0xff01;

const GROUPS = [0x001d, 0x0017, 0x0018, 0x0019, 0x0100];
const SIGNATURE_SCHEMES = [
  0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601, 0x0603, 0x0203, 0x0201, 0x0402,
];

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u24(n: number): Buffer {
  return Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
}

function vec16(body: Buffer): Buffer {
  return Buffer.concat([u16(body.length), body]);
}

function list16(values: readonly number[]): Buffer {
  return vec16(Buffer.concat(values.map(u16)));
}

function extension(type: number, body: Buffer): Buffer {
  return Buffer.concat([u16(type), vec16(body)]);
}

function extensions(servername: string): Buffer {
  const name = Buffer.from(servername, 'ascii');
  return vec16(
    Buffer.concat([
      extension(EXT_SERVER_NAME, vec16(Buffer.concat([Buffer.from([0]), vec16(name)]))),
      extension(EXT_SUPPORTED_GROUPS, list16(GROUPS)),
      extension(EXT_EC_POINT_FORMATS, Buffer.from([1, 0])),
      extension(EXT_SIGNATURE_ALGORITHMS, list16(SIGNATURE_SCHEMES)),
      extension(EXT_EXTENDED_MASTER_SECRET, Buffer.alloc(0)),
      extension(EXT_RENEGOTIATION_INFO, Buffer.from([0])),
    ]),
  );
}

/** One TLS record carrying a ClientHello. */
export function buildClientHello(opts: HelloOptions): Buffer {
  const random = createHash('sha256').update(opts.seed).digest();
  const compression = opts.offerCompression ? Buffer.from([2, 1, 0]) : Buffer.from([1, 0]);
  const body = Buffer.concat([
    u16(opts.version),
    random,
    Buffer.from([0]),
    list16(opts.suites),
    compression,
    opts.version === TLS12 ? extensions(opts.servername) : Buffer.alloc(0),
  ]);
  const handshake = Buffer.concat([Buffer.from([1]), u24(body.length), body]);
  // Record version 0x0301 for TLS hellos is what mainstream clients send; SSL 3.0 hellos say 0x0300 throughout.
  const recordVersion = opts.version === SSL3 ? SSL3 : 0x0301;
  return Buffer.concat([Buffer.from([22]), u16(recordVersion), vec16(handshake)]);
}

export const EXTENSIONS = {
  renegotiation_info: EXT_RENEGOTIATION_INFO,
  extended_master_secret: EXT_EXTENDED_MASTER_SECRET,
};
