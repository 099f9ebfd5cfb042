// Reads a response body without ever holding more than the cap: on the wire and, when decoding, after
// decompression too, so neither a huge body nor a decompression bomb can grow the process.
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { NetError } from './types.ts';

export interface BodyRead {
  body: Buffer;
  /** Bytes received for the body before decoding (at most the cap). */
  wireBytes: number;
  truncated: boolean;
}

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
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
 * Reads `source` up to `cap` bytes. With `encoding`, the bytes are decoded as they arrive and the decoded
 * output is capped as well; the wire side is capped at the same size, since reading compressed input
 * without end is the same exhaustion by other means.
 */
export async function readCappedBody(source: Readable, cap: number, encoding: string | null): Promise<BodyRead> {
  const wire = new ByteBudget(cap);
  const kept: Buffer[] = [];
  // Cutting the body short destroys the stream, which then emits an abort error that is expected here.
  source.on('error', () => undefined);

  if (!canDecode(encoding)) {
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        kept.push(wire.take(chunk));
        if (wire.cut) break;
      }
    } finally {
      source.destroy();
    }
    return { body: Buffer.concat(kept), wireBytes: wire.used, truncated: wire.cut };
  }

  // A failure of the connection itself (time limit, reset) keeps its own identity: only what the decoder
  // refuses is a protocol error. Mislabelling a time limit hit mid-body as protocol_error failed large pages.
  let sourceFailure: Error | null = null;
  async function* capWire(input: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of input) {
        yield wire.take(chunk);
        if (wire.cut) return;
      }
    } catch (err) {
      sourceFailure = err as Error;
      throw err;
    }
  }
  const decoded = new ByteBudget(cap);
  try {
    // The source is read inside capWire, not handed to pipeline, so its own failure surfaces there first.
    await pipeline(capWire(source), DECODERS[encoding]!(), async (output: AsyncIterable<Buffer>) => {
      for await (const chunk of output) {
        kept.push(decoded.take(chunk));
        if (decoded.cut) return;
      }
    });
  } catch (err) {
    // Set inside capWire, which the compiler cannot follow: read it at its declared type.
    const failed = sourceFailure as Error | null;
    if (failed !== null) throw failed;
    // A cut stream ends the decoder early; only a corrupt stream that was not cut is a protocol error.
    if (!wire.cut && !decoded.cut) {
      throw new NetError('protocol_error', `cannot decode ${encoding} body: ${(err as Error).message}`);
    }
  } finally {
    source.destroy();
  }
  return { body: Buffer.concat(kept), wireBytes: wire.used, truncated: wire.cut || decoded.cut };
}
