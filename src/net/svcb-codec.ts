// RDATA codec for SVCB (type 64) and HTTPS (type 65) records, RFC 9460, which dns-packet does not know.
// Decoded records are plain JSON; encoding exists for the fixture DNS server and the round-trip tests.
import ipaddr from 'ipaddr.js';

export interface SvcbData {
  priority: number;
  /** "." for the root (the owner name itself), else lower-case without the trailing dot. */
  target: string;
  mandatory?: string[];
  alpn?: string[];
  no_default_alpn?: true;
  port?: number;
  ipv4hint?: string[];
  /** ECH configs are opaque here: only their presence is a fact. */
  ech?: true;
  ipv6hint?: string[];
  /** Keys this codec does not interpret, as `key<N>`: hex of the value. */
  [unknownKey: `key${number}`]: string;
}

const KEY_NAMES: Record<number, string> = {
  0: 'mandatory',
  1: 'alpn',
  2: 'no-default-alpn',
  3: 'port',
  4: 'ipv4hint',
  5: 'ech',
  6: 'ipv6hint',
};
const keyName = (key: number): string => KEY_NAMES[key] ?? `key${key}`;
const keyNumber = (name: string): number => {
  const known = Object.entries(KEY_NAMES).find(([, n]) => n === name);
  if (known) return Number(known[0]);
  const m = /^key(\d{1,5})$/.exec(name);
  if (!m || Number(m[1]) > 65535) throw new Error(`svcb: unknown parameter ${name}`);
  return Number(m[1]);
};

class Reader {
  private offset = 0;
  constructor(private readonly buf: Buffer) {}
  get done(): boolean {
    return this.offset >= this.buf.length;
  }
  u8(): number {
    this.need(1);
    return this.buf.readUInt8(this.offset++);
  }
  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16BE(this.offset);
    this.offset += 2;
    return v;
  }
  bytes(n: number): Buffer {
    this.need(n);
    const out = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  private need(n: number): void {
    if (this.offset + n > this.buf.length) throw new Error('svcb: truncated RDATA');
  }
}

function readName(r: Reader): string {
  const labels: string[] = [];
  for (let len = r.u8(); len !== 0; len = r.u8()) {
    if (len > 63) throw new Error('svcb: compressed or invalid target name');
    labels.push(r.bytes(len).toString('latin1'));
  }
  return labels.length === 0 ? '.' : labels.join('.').toLowerCase();
}

function writeName(name: string): Buffer {
  const labels = name === '.' || name === '' ? [] : name.replace(/\.$/, '').split('.');
  return Buffer.concat([
    ...labels.map((label) => {
      if (label.length === 0 || label.length > 63) throw new Error(`svcb: bad label in ${name}`);
      return Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')]);
    }),
    Buffer.from([0]),
  ]);
}

function readStrings(value: Buffer): string[] {
  const r = new Reader(value);
  const out: string[] = [];
  while (!r.done) out.push(r.bytes(r.u8()).toString('utf8'));
  return out;
}

function readAddresses(value: Buffer, size: 4 | 16): string[] {
  if (value.length === 0 || value.length % size !== 0) throw new Error('svcb: bad address hint length');
  const out: string[] = [];
  for (let i = 0; i < value.length; i += size) {
    out.push(ipaddr.fromByteArray([...value.subarray(i, i + size)]).toString());
  }
  return out;
}

export function decodeSvcb(rdata: Buffer): SvcbData {
  const r = new Reader(rdata);
  const data: SvcbData = { priority: r.u16(), target: readName(r) };
  const fields = data as unknown as Record<string, unknown>;
  while (!r.done) {
    const key = r.u16();
    const value = r.bytes(r.u16());
    switch (key) {
      case 0: {
        const keys: string[] = [];
        for (let i = 0; i + 1 < value.length; i += 2) keys.push(keyName(value.readUInt16BE(i)));
        data.mandatory = keys;
        break;
      }
      case 1:
        data.alpn = readStrings(value);
        break;
      case 2:
        data.no_default_alpn = true;
        break;
      case 3:
        if (value.length !== 2) throw new Error('svcb: port must be 2 bytes');
        data.port = value.readUInt16BE(0);
        break;
      case 4:
        data.ipv4hint = readAddresses(value, 4);
        break;
      case 5:
        data.ech = true;
        break;
      case 6:
        data.ipv6hint = readAddresses(value, 16);
        break;
      default:
        fields[`key${key}`] = value.toString('hex');
    }
  }
  return data;
}

function encodeValue(key: number, value: unknown): Buffer {
  switch (key) {
    case 0:
      return Buffer.concat((value as string[]).map((k) => u16(keyNumber(k))));
    case 1:
      return Buffer.concat(
        (value as string[]).map((s) => {
          const b = Buffer.from(s, 'utf8');
          return Buffer.concat([Buffer.from([b.length]), b]);
        }),
      );
    case 2:
    case 5:
      return Buffer.alloc(0);
    case 3:
      return u16(value as number);
    case 4:
    case 6:
      return Buffer.from((value as string[]).flatMap((a) => ipaddr.parse(a).toByteArray()));
    default:
      return Buffer.from(value as string, 'hex');
  }
}

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};

export function encodeSvcb(data: SvcbData): Buffer {
  const params = Object.entries(data)
    .filter(([name]) => name !== 'priority' && name !== 'target')
    .map(([name, value]) => [keyNumber(name.replace(/_/g, '-')), value] as const)
    .sort((a, b) => a[0] - b[0]);
  return Buffer.concat([
    u16(data.priority),
    writeName(data.target),
    ...params.flatMap(([key, value]) => {
      const encoded = encodeValue(key, value);
      return [u16(key), u16(encoded.length), encoded];
    }),
  ]);
}
