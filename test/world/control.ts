// The world's control URL (`DVS_WORLD_CONTROL`), plain HTTP on 127.0.0.1, through which a test changes the world
// while it runs:
//   POST   /sites/{name}/as/{template}   name answers as template does (DNS, TLS, HTTP), under its own names
//   DELETE /sites/{name}                 name answers as itself again
//   POST   /{receiver}/statuses          JSON array of statuses the receiving site answers with next
//   DELETE /{receiver}/received          the receiving site forgets what it recorded
// A site is named by its folder name or its domain.
import http from 'node:http';
import type net from 'node:net';

export interface WorldControls {
  /** Makes `name` answer as `template`, or as itself again when `template` is null; the chosen site's name. */
  changeSite(name: string, template: string | null): Promise<{ site: string; as: string }>;
  /** The receiving site of that name, or undefined. */
  receiver(name: string): { script(statuses: number[]): void; clear(): void } | undefined;
}

/** A refusal the control answers with its status and message. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_BODY_BYTES = 64 * 1024;

function statusesOf(text: string): number[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ControlError(400, 'the body must be a JSON array of HTTP statuses');
  }
  if (!Array.isArray(value) || !value.every((s) => Number.isInteger(s) && s >= 200 && s <= 599))
    throw new ControlError(400, 'the body must be a JSON array of HTTP statuses (200 to 599)');
  return value as number[];
}

async function readText(req: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length > MAX_BODY_BYTES) throw new ControlError(413, 'the body is too large');
  }
  return text;
}

async function handle(controls: WorldControls, req: http.IncomingMessage): Promise<[number, unknown]> {
  const parts = new URL(req.url ?? '/', 'http://x').pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const method = req.method ?? 'GET';
  if (parts[0] === 'sites' && parts.length === 4 && parts[2] === 'as' && method === 'POST')
    return [200, await controls.changeSite(parts[1]!, parts[3]!)];
  if (parts[0] === 'sites' && parts.length === 2 && method === 'DELETE')
    return [200, await controls.changeSite(parts[1]!, null)];
  if (parts.length === 2 && (parts[1] === 'statuses' || parts[1] === 'received')) {
    const receiver = controls.receiver(parts[0]!);
    if (!receiver) throw new ControlError(404, `${parts[0]} is no receiving site of this world`);
    if (parts[1] === 'statuses' && method === 'POST') {
      receiver.script(statusesOf(await readText(req)));
      return [204, null];
    }
    if (parts[1] === 'received' && method === 'DELETE') {
      receiver.clear();
      return [204, null];
    }
  }
  throw new ControlError(404, `no control at ${method} ${req.url ?? '/'}`);
}

/** Starts the control server on 127.0.0.1; resolves with it listening. */
export async function startControl(controls: WorldControls): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    handle(controls, req).then(
      ([status, body]) => {
        if (body === null) return void res.writeHead(status).end();
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
      (err: unknown) => {
        const status = err instanceof ControlError ? err.status : 409;
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${(err as Error).message}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return server;
}

export function controlUrl(server: http.Server): string {
  const { port } = server.address() as net.AddressInfo;
  return `http://127.0.0.1:${port}`;
}
