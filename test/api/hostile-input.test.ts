// Input a hostile caller sends, over REST and MCP: special-use names, bodies that do not decompress or come in
// an encoding the service does not speak, and MCP messages of the wrong shape. Each is a clear 4xx (or JSON-RPC
// error), never a 500 or a stack trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationProblem } from '../../src/api/api-schemas.ts';
import { specialUseProblem } from '../../src/api/special-use-names.ts';
import { startApiWorld, startTestService, type ApiResponse, type TestService } from '../server/harness.ts';

type ApiWorld = Awaited<ReturnType<typeof startApiWorld>>;
let world: ApiWorld;
let svc: TestService;

beforeAll(async () => {
  world = await startApiWorld();
  svc = await startTestService({ ...world.env, DVS_QUICK_RATE_LIMIT: '100000' });
});

afterAll(async () => {
  await svc?.stop();
  await world?.stop();
  world?.removeSites();
});

function expectError(res: ApiResponse, status: number, pattern: RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(validationProblem('error', body)).toBeNull();
  expect((body as { error: string }).error).toMatch(pattern);
  expect(res.text).not.toMatch(/\bat .*\.ts:\d+/);
}

describe('special-use names', () => {
  const reserved: [string, string][] = [
    ['hidden.onion', 'RFC 7686'],
    ['printer.home.arpa', 'RFC 8375'],
    ['1.2.0.192.in-addr.arpa', 'RFC 6761'],
    ['1.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa', 'RFC 6761'],
    ['name.alt', 'RFC 9476'],
    ['printer.local', 'RFC 6762'],
    ['app.localhost', 'RFC 6761'],
    ['LOCALHOST.', 'RFC 6761'],
    ['nothing.invalid', 'RFC 6761'],
    ['docs.example', 'RFC 6761'],
  ];
  it.each(reserved)('answers 400 for %s, naming %s', async (domain, rfc) => {
    const pattern = new RegExp(`special-use name.*${rfc}`);
    expectError(await svc.post('/api/quickscan', { domain }), 400, pattern);
    const token = 'dvs_test_' + 'a'.repeat(43);
    expectError(await svc.post('/api/fullvalidation', { domain, payment_token: token }), 400, pattern);
  });

  it('refuses .test unless DVS_EXTRA_SUFFIXES opens it, and never opens the other names', () => {
    expect(specialUseProblem('good.test', [])).toMatch(/RFC 6761/);
    expect(specialUseProblem('good.test', ['test'])).toBeNull();
    expect(specialUseProblem('good.test', ['other'])).toMatch(/RFC 6761/);
    expect(specialUseProblem('printer.local', ['local'])).toMatch(/RFC 6762/);
    expect(specialUseProblem('example.com', [])).toBeNull();
    expect(specialUseProblem('notlocal', [])).toBeNull();
    expect(specialUseProblem('onion.example.org', [])).toBeNull();
  });
});
