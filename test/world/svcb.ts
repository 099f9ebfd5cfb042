// RDATA codec for SVCB (type 64) and HTTPS (type 65), RFC 9460 section 2.2, which dns-packet lacks. The DNS
// server encodes with it; the tests decode with it to check what went on the wire.
import ipaddr from 'ipaddr.js';

export interface SvcbData {
  priority: number;
  target: string;
  alpn?: string[];
  no_default_alpn?: boolean;
  port?: number;
  ipv4hint?: string[];
  /** ECHConfigList, base64. */
  ech?: string;
  ipv6hint?: string[];
}

const KEY = { alpn: 1, no_default_alpn: 2, port: 3, ipv4hint: 4, ech: 5, ipv6hint: 6 } as const;

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([
    ...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, 'ascii')])),
    Buffer.from([0]),
  ]);
}

function decodeName(buf: Buffer, offset: number): { name: string; next: number } {
  const labels: string[] = [];
  let at = offset;
  for (let len = buf[at]!; len !== 0; len = buf[at]!) {
    labels.push(buf.toString('ascii', at + 1, at + 1 + len));
    at += 1 + len;
  }
  return { name: labels.length ? labels.join('.') : '.', next: at + 1 };
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function param(key: number, value: Buffer): Buffer {
  return Buffer.concat([u16(key), u16(value.length), value]);
}

/** Wire-format RDATA; parameters in ascending key order as the RFC requires. */
export function encodeSvcb(data: SvcbData): Buffer {
  const params: Buffer[] = [];
  if (data.alpn) {
    params.push(
      param(
        KEY.alpn,
        Buffer.concat(data.alpn.map((id) => Buffer.concat([Buffer.from([Buffer.byteLength(id)]), Buffer.from(id)]))),
      ),
    );
  }
  if (data.no_default_alpn) params.push(param(KEY.no_default_alpn, Buffer.alloc(0)));
  if (data.port !== undefined) params.push(param(KEY.port, u16(data.port)));
  if (data.ipv4hint)
    params.push(param(KEY.ipv4hint, Buffer.from(data.ipv4hint.flatMap((a) => ipaddr.IPv4.parse(a).toByteArray()))));
  if (data.ech !== undefined) params.push(param(KEY.ech, Buffer.from(data.ech, 'base64')));
  if (data.ipv6hint)
    params.push(param(KEY.ipv6hint, Buffer.from(data.ipv6hint.flatMap((a) => ipaddr.IPv6.parse(a).toByteArray()))));
  return Buffer.concat([u16(data.priority), encodeName(data.target), ...params]);
}

export function decodeSvcb(rdata: Buffer): SvcbData {
  const { name, next } = decodeName(rdata, 2);
  const out: SvcbData = { priority: rdata.readUInt16BE(0), target: name };
  for (let at = next; at < rdata.length;) {
    const key = rdata.readUInt16BE(at);
    const len = rdata.readUInt16BE(at + 2);
    const value = rdata.subarray(at + 4, at + 4 + len);
    at += 4 + len;
    if (key === KEY.alpn) {
      out.alpn = [];
      for (let i = 0; i < value.length; i += 1 + value[i]!)
        out.alpn.push(value.toString('ascii', i + 1, i + 1 + value[i]!));
    } else if (key === KEY.no_default_alpn) out.no_default_alpn = true;
    else if (key === KEY.port) out.port = value.readUInt16BE(0);
    else if (key === KEY.ipv4hint) out.ipv4hint = chunks(value, 4).map((b) => ipaddr.fromByteArray([...b]).toString());
    else if (key === KEY.ech) out.ech = value.toString('base64');
    else if (key === KEY.ipv6hint) out.ipv6hint = chunks(value, 16).map((b) => ipaddr.fromByteArray([...b]).toString());
  }
  return out;
}

function chunks(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i + size <= buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}
