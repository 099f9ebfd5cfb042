// A minimal DER reader for the certificate fields node:crypto on Node 20 does not expose (certificate-fields.ts).
// It reads definite-length TLVs only, which is all DER allows.

export interface Tlv {
  tag: number;
  /** The value bytes. */
  value: Buffer;
  /** The whole TLV: tag, length and value. */
  raw: Buffer;
  /** Offset just past this TLV in the buffer it was read from. */
  end: number;
}

export class DerError extends Error {
  override name = 'DerError';
}

/** Reads the TLV that starts at `offset`. */
export function readTlv(buf: Buffer, offset = 0): Tlv {
  if (offset + 2 > buf.length) throw new DerError('truncated header');
  const tag = buf[offset]!;
  let len = buf[offset + 1]!;
  let at = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || at + n > buf.length) throw new DerError('bad length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[at + i]!;
    at += n;
  }
  if (at + len > buf.length) throw new DerError('truncated value');
  return { tag, value: buf.subarray(at, at + len), raw: buf.subarray(offset, at + len), end: at + len };
}

/** The TLVs inside a constructed value (a SEQUENCE's or SET's contents). */
export function children(value: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < value.length;) {
    const t = readTlv(value, at);
    out.push(t);
    at = t.end;
  }
  return out;
}

/** Dotted text of an OBJECT IDENTIFIER's value bytes. */
export function oidText(value: Buffer): string {
  const ids: number[] = [];
  let n = 0;
  for (const b of value) {
    n = n * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      ids.push(n);
      n = 0;
    }
  }
  const first = ids.shift();
  if (first === undefined) throw new DerError('empty OID');
  const top = first < 80 ? Math.floor(first / 40) : 2;
  return [top, first - top * 40, ...ids].join('.');
}

/** An unsigned INTEGER value as a number (small integers only). */
export function intValue(value: Buffer): number {
  let n = 0;
  for (const b of value) n = n * 256 + b;
  return n;
}
