// Sends one hand-built ClientHello over a pinned TCP connection and reads the server's first answer.
import type { Net } from '../../src/net/types.ts';
import { errorCode } from './handshake.ts';
import { parseServerReply, type ServerReply } from './parse-server-reply.ts';
import { onAbort } from '../../src/net/on-abort.ts';

/** The server closed or reset the connection without a TLS answer: a refusal by some servers. */
export type RawReply = ServerReply | { kind: 'closed' };
export type RawResult = { reply: RawReply } | { error: string };

/** More than any ServerHello needs; the rest of the flight is never read. */
const MAX_READ_BYTES = 64 * 1024;

export async function rawHello(net: Net, host: string, hello: Buffer, signal: AbortSignal): Promise<RawResult> {
  let socket;
  try {
    socket = await net.tcp(host, net.ports.https, { signal });
  } catch (err) {
    return { error: errorCode(err).code };
  }
  return new Promise<RawResult>((resolve) => {
    let received = Buffer.alloc(0);
    let wrote = false;
    const finish = (result: RawResult): void => {
      unsubscribe();
      socket.destroy();
      resolve(result);
    };
    // Replaces the network layer's idle timer, whose bare destroy would read as the server closing on us.
    socket.setTimeout(net.requestTimeoutMs);
    socket.on('timeout', () => finish({ error: 'timeout' }));
    const unsubscribe = onAbort(signal, () => finish({ error: 'aborted' }));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const reply = parseServerReply(received);
      if (reply.kind !== 'incomplete') finish({ reply });
      else if (received.length > MAX_READ_BYTES) finish({ reply: { kind: 'unexpected', first_byte: received[0]! } });
    });
    const closed = (): void =>
      finish(
        wrote
          ? { reply: received.length ? parseServerReply(received) : { kind: 'closed' } }
          : { error: 'connect_error' },
      );
    socket.on('end', closed);
    socket.on('close', closed);
    socket.on('error', (err: NodeJS.ErrnoException) =>
      wrote && err.code === 'ECONNRESET'
        ? finish({ reply: { kind: 'closed' } })
        : finish({ error: err.code ?? 'connect_error' }),
    );
    socket.write(hello, () => {
      wrote = true;
    });
  });
}
