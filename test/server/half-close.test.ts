// A client may close its sending side once its requests are written: HTTP/1.1 lets it (a half-closed
// connection does not say the client lost interest in the answers), and it must still get every answer whole.
// The half-close here is the TCP FIN under the TLS session. Before the listener allowed half-open connections,
// Node ended the service's side on that FIN: an answer not yet written (here the one pipelined behind a large
// answer, which the connection guard starts once that has drained) was never sent.
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './harness.ts';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({});
}, 60_000);

afterAll(async () => {
  await svc?.stop();
});

interface Answers {
  /** What the service sent until it closed the connection. */
  text: string;
  /** 'end' when the service closed it with a FIN, else the socket's error code. */
  ended: string;
}

/** Writes `requests` over TLS, sends a FIN, and reads until the service closes the connection. */
function halfClosed(requests: string): Promise<Answers> {
  return new Promise((resolve) => {
    const tcp = net.connect({ host: '127.0.0.1', port: svc.service.port, allowHalfOpen: true });
    const socket = tls.connect({ socket: tcp, ca: svc.caPem, servername: 'localhost' }, () => {
      socket.write(requests);
      tcp.end();
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = (ended: string) => resolve({ text: Buffer.concat(chunks).toString('latin1'), ended });
    socket.on('end', () => done('end'));
    socket.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}

/** The answers in `text`, each its status and whether its body is as long as its Content-Length says. */
function answersIn(text: string): { status: number; length: number; whole: boolean }[] {
  const out = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const head = text.slice(at, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    const body = end + 4;
    out.push({ status: Number(head.slice(9, 12)), length, whole: text.length - body >= length });
    at = body + length;
  }
  return out;
}

const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`;

describe('a client that half-closes after its requests', () => {
  it('gets a large answer whole, with or without Connection: close', async () => {
    for (const connection of ['', 'Connection: close\r\n']) {
      const answers = await halfClosed(get('/docs/rules.md', connection));
      expect(answers.ended).toBe('end');
      const [answer, ...more] = answersIn(answers.text);
      expect(more).toEqual([]);
      // The rule catalogue is the largest document: more than the socket buffers hold at once.
      expect(answer).toEqual({ status: 200, length: expect.any(Number) as number, whole: true });
      expect(answer!.length).toBeGreaterThan(400_000);
    }
  });

  it('gets every answer it pipelined, in order, the large one between the others', async () => {
    const answers = await halfClosed(get('/healthz') + get('/docs/rules.md') + get('/readyz'));
    expect(answers.ended).toBe('end');
    expect(answersIn(answers.text).map((a) => [a.status, a.whole])).toEqual([
      [200, true],
      [200, true],
      [200, true],
    ]);
    expect(answers.text.indexOf('"status":"ok"')).toBeLessThan(answers.text.indexOf('"status":"ready"'));
  });
});
