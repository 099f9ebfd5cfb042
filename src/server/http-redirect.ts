// The optional plain-HTTP listener: it serves nothing but a permanent redirect to the HTTPS base URL.
import http from 'node:http';

export interface RedirectServer {
  port: number;
  close(): Promise<void>;
}

export async function startRedirectServer(host: string, port: number, baseUrl: string): Promise<RedirectServer> {
  const server = http.createServer((req, res) => {
    const target = baseUrl + (req.url && req.url.startsWith('/') ? req.url : '/');
    res.writeHead(308, {
      Location: target,
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'max-age=3600',
    });
    res.end(`This service is served over HTTPS only: ${target}\n`);
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  return {
    port: bound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
