// Reads a response body without ever holding more than the cap: on the wire and, when decoding, after
// decompression too, so neither a huge body nor a decompression bomb can grow the process.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  brotliDecompressSync,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  gunzipSync,
  inflateSync,
  type ZlibOptions,
} from 'node:zlib';
import type { Transform } from 'node:stream';
import { NetError } from './types.ts';

export interface BodyRead {
  body: Buffer;
  /** Bytes received for the body before decoding (at most the cap). */
  wireBytes: number;
  truncated: boolean;
}

interface Decoder {
  /** The whole body at once, refusing (RangeError) output past `maxOutputLength`. */
  whole(input: Buffer, opts: ZlibOptions): Buffer;
  stream(): Transform;
}

const gzip: Decoder = { whole: gunzipSync, stream: createGunzip };
const DECODERS: Record<string, Decoder> = {
  gzip,
  'x-gzip': gzip,
  deflate: { whole: inflateSync, stream: createInflate },
  br: { whole: brotliDecompressSync, stream: createBrotliDecompress },
};

/** Whether this module can decode a Content-Encoding value (a single coding; stacked codings are left as is). */
const canDecode = (encoding: string | null): encoding is string =>
  encoding !== null && Object.hasOwn(DECODERS, encoding);

/** Counts bytes against a cap and hands back the part of each chunk that still fits. */
class ByteBudget {
  used = 0;
  /** Set once a chunk did not fit whole: bytes were dropped. */
  cut = false;
  constructor(private readonly cap: number) {}
  take(chunk: Buffer): Buffer {
    const room = this.cap - this.used;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.used += kept.length;
    if (kept.length < chunk.length) this.cut = true;
    return kept;
  }
}

/**
 * Decodes a body cut at the cap (on the wire, or past the cap once decoded) as a stream, keeping what comes
 * before the cut: the decoder fails on the cut-off end, and a bomb stops at the cap however far it would expand.
 */
async function decodeCut(wire: Buffer, decoder: Decoder, cap: number): Promise<{ body: Buffer; cut: boolean }> {
  const decoded = new ByteBudget(cap);
  const kept: Buffer[] = [];
  await pipeline(Readable.from([wire]), decoder.stream(), async (output: AsyncIterable<Buffer>) => {
    for await (const chunk of output) {
      kept.push(decoded.take(chunk));
      if (decoded.cut) return;
    }
  }).catch(() => undefined);
  return { body: Buffer.concat(kept), cut: decoded.cut };
}

/**
 * Reads `source` up to `cap` bytes. With `encoding`, the bytes read are then decoded, the decoded output capped
 * as well: the wire side is capped at the same size, since reading compressed input without end is the same
 * exhaustion by other means. A body that fits is decoded in one synchronous call: a decoding stream per body
 * (a native handle, a trip through the thread pool and back) cost about ten times its CPU for the small documents
 * a scan reads.
 */
export async function readCappedBody(source: Readable, cap: number, encoding: string | null): Promise<BodyRead> {
  const wire = new ByteBudget(cap);
  const kept: Buffer[] = [];
  // Cutting the body short destroys the stream, which then emits an abort error that is expected here. A
  // failure of the connection itself (time limit, reset) propagates from the loop with its own code.
  source.on('error', () => undefined);
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      kept.push(wire.take(chunk));
      if (wire.cut) break;
    }
  } finally {
    source.destroy();
  }
  const raw = Buffer.concat(kept);
  if (!canDecode(encoding)) return { body: raw, wireBytes: wire.used, truncated: wire.cut };
  const decoder = DECODERS[encoding]!;
  try {
    return { body: decoder.whole(raw, { maxOutputLength: cap }), wireBytes: wire.used, truncated: wire.cut };
  } catch (err) {
    const overCap = err instanceof RangeError;
    // Only a corrupt body that was not cut is a protocol error.
    if (!wire.cut && !overCap) {
      throw new NetError('protocol_error', `cannot decode ${encoding} body: ${(err as Error).message}`);
    }
    const { body, cut } = await decodeCut(raw, decoder, cap);
    return { body, wireBytes: wire.used, truncated: wire.cut || cut };
  }
}
