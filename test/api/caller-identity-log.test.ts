// The caller-identity middleware only translates: it hands a signed request to the verifier with the URL as the
// service's public origin names it, records a verified caller in X-Verified-Agent and the request's log line, logs
// a refused signature (throttled), and leaves an unsigned request alone without asking the verifier.
import type { RequestState } from '../../src/api/http/request-log.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Router from '@koa/router';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/api/http/app.ts';
import { callerIdentity } from '../../src/api/http/caller-identity.ts';
import { createLogger } from '../../src/lib/log.ts';
import type { CallerVerdict, SignedRequest } from '../../src/signing/caller-signature.ts';

const lines: Array<Record<string, unknown>> = [];
const asked: SignedRequest[] = [];
let verdict: CallerVerdict = { status: 'unsigned' };
let server: http.Server;
let base: string;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = createLogger({ logLevel: 'info' }, sink);
  const identities = { identify: async (request: SignedRequest) => (asked.push(request), verdict) };
  const router = new Router<RequestState>();
  router.get('/who', (ctx) => {
    ctx.body = { agent: ctx.state.verifiedAgent ?? null };
  });
  const app = createApp({
    baseUrl: 'https://dvs.example.net',
    trustProxy: null,
    log,
    identify: callerIdentity(identities, 'https://dvs.example.net', log),
    routers: [router],
  });
  const handle = app.callback();
  server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const signedHeaders = { 'signature-input': 'sig1=("@authority");tag="web-bot-auth"', signature: 'sig1=:AA==:' };
const requestLine = (path: string) => lines.filter((l) => l.msg === 'request' && l.path === path).at(-1)!;

it('leaves an unsigned request alone: the verifier is not asked', async () => {
  const res = await fetch(`${base}/who?unsigned`);
  expect(res.headers.get('x-verified-agent')).toBeNull();
  expect(asked).toHaveLength(0);
  expect(requestLine('/who')).not.toHaveProperty('verified_agent');
});

it('records a verified caller in the header, the request state and the log line', async () => {
  verdict = { status: 'verified', agent: 'https://agent.example', keyid: 'k1' };
  const res = await fetch(`${base}/who?q=1`, { headers: signedHeaders });
  expect(res.headers.get('x-verified-agent')).toBe('https://agent.example');
  expect(res.headers.get('vary')).toMatch(/Signature/);
  expect(await res.json()).toEqual({ agent: 'https://agent.example' });
  expect(asked.at(-1)!.url).toBe('https://dvs.example.net/who?q=1');
  expect(requestLine('/who')).toMatchObject({ verified_agent: 'https://agent.example', status: 200 });
});

it('serves a refused signature as unsigned and logs the reason at most once a minute', async () => {
  verdict = { status: 'invalid', agent: 'https://agent.example', reason: 'the signature has expired' };
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${base}/who`, { headers: signedHeaders });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-verified-agent')).toBeNull();
    expect(await res.json()).toEqual({ agent: null });
  }
  const warnings = lines.filter((l) => l.msg === 'caller signature not verified; served as unsigned');
  expect(warnings).toEqual([
    expect.objectContaining({ agent: 'https://agent.example', reason: 'the signature has expired' }),
  ]);
});
