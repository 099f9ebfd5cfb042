// The REST contract end to end over HTTPS, against the fixture internet: every status the API gives, the
// ScanResult and Error shapes, the security headers, and a property that no body ever gets a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validationProblem } from '../../src/api/operations/api-schemas.ts';
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

/** The Error body with its status, message and (when the problem has one) its stable code. */
function expectError(res: ApiResponse, status: number, pattern: RegExp, code?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(validationProblem('error', body)).toBeNull();
  expect((body as { error: string }).error).toMatch(pattern);
  expect((body as { code?: string }).code).toBe(code);
}

interface Result {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent: Record<string, unknown>;
}

/**
 * A ScanResult whose structuredContent is the document of its second content item: the report, or for a Full
 * Validation the certificate with the report it was judged in (or the Error of an isError).
 */
function expectScanResult(res: ApiResponse): Result {
  expect(res.status, res.text).toBe(200);
  const body = res.json() as Result;
  expect(validationProblem('scan-result', body)).toBeNull();
  const second = body.isError ? null : (JSON.parse(body.content[1]!.text) as Record<string, unknown>);
  if (body.isError) expect(body.structuredContent).toEqual({ error: body.content[0]!.text, code: 'not_resolvable' });
  else if ('jws' in second!) {
    const { certificate, report } = body.structuredContent as { certificate: unknown; report: { verdict: string } };
    expect(certificate).toEqual(second);
    expect(report.verdict).toBe((second as { payload: { verdict: string } }).payload.verdict);
  } else expect(body.structuredContent).toEqual(second);
  return body;
}

describe('POST /api/quickscan', () => {
  it('answers 200 with a summary and the canonical JSON report for good.test, then serves it from the cache', async () => {
    const first = await svc.post('/api/quickscan', { domain: 'good.test' });
    const result = expectScanResult(first);
    expect(result.isError).toBeUndefined();
    expect(result.content).toHaveLength(2);
    const report = JSON.parse(result.content[1]!.text) as {
      type: string;
      domain: string;
      tier: string;
      verdict: string;
    };
    expect(report).toMatchObject({ type: 'dvs.report', domain: 'good.test', tier: 'quick' });
    expect(result.content[0]!.text).toContain('good.test');
    const second = await svc.post('/api/quickscan', { domain: 'GOOD.test.' });
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.text).toBe(first.text);
  });

  it('answers 200 with isError and a clear text for a domain that does not resolve', async () => {
    const result = expectScanResult(await svc.post('/api/quickscan', { domain: 'nxdomain.test' }));
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/does not exist in DNS \(NXDOMAIN\)/);
  });

  const invalidDomains: [string, string][] = [
    ['a scheme', 'https://good.test'],
    ['a path', 'good.test/index.html'],
    ['a port', 'good.test:443'],
    ['an IPv4 literal', '192.0.2.1'],
    ['an IPv6 literal', '[2001:db8::1]'],
    ['a label starting with a hyphen', '-bad.test'],
    ['an empty label', 'a..test'],
    ['a label of 64 characters', `${'a'.repeat(64)}.test`],
    ['a name longer than 253 characters in total', `${'abcdefghi.'.repeat(25)}test`],
    ['no public suffix', 'intranet'],
    ['characters a name cannot hold', 'exa mple.test'],
  ];
  it.each(invalidDomains)('answers 400 for a domain with %s', async (_what, domain) => {
    expectError(await svc.post('/api/quickscan', { domain }), 400, /domain/, 'invalid_domain');
  });

  it('answers 415 for a body not sent as JSON', async () => {
    expectError(
      await svc.call('POST', '/api/quickscan', {
        body: 'domain=good.test',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      /Content-Type: application\/json/,
    );
    expectError(
      await svc.call('POST', '/api/quickscan', { body: '{"domain":"good.test"}' }),
      415,
      /Content-Type: application\/json/,
    );
  });

  it('answers 400 for malformed JSON, unknown fields, a wrong type and a missing domain', async () => {
    expectError(await svc.post('/api/quickscan', '{"domain": "good.test"'), 400, /not valid JSON/);
    expectError(await svc.post('/api/quickscan', { domain: 'good.test', tier: 'full' }), 400, /unknown field "tier"/);
    expectError(await svc.post('/api/quickscan', { domain: 42 }), 400, /domain must be a string/);
    expectError(await svc.post('/api/quickscan', {}), 400, /domain is required/);
    expectError(await svc.post('/api/quickscan', '"good.test"'), 400, /not valid JSON/);
    expectError(await svc.post('/api/quickscan', '[]'), 400, /must be a JSON object/);
  });

  it('answers 413 for a body over the limit', async () => {
    expectError(await svc.post('/api/quickscan', { domain: 'x'.repeat(20_000) }), 413, /too large/);
  });

  it('answers 405 with the Error body and Allow for another method, and 404 for an unknown path', async () => {
    const res = await svc.call('GET', '/api/quickscan');
    expectError(res, 405, /GET is not allowed/);
    expect(res.headers.allow).toMatch(/POST/);
    expectError(await svc.call('GET', '/api/nothing'), 404, /nothing is served/);
  });

  it('answers OPTIONS with Allow, and a method implemented nowhere with 501 and the Error body', async () => {
    const options = await svc.call('OPTIONS', '/api/quickscan');
    expect(options.status).toBe(200);
    expect(options.headers.allow).toMatch(/POST/);
    expectError(await svc.call('PROPFIND', '/api/quickscan'), 501, /PROPFIND is not a method/);
  });

  it('sends HSTS and the usual security headers, and a request id', async () => {
    const res = await svc.post('/api/quickscan', { domain: 'nxdomain.test' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await svc.call('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers['x-request-id']).toBe('trace-123');
  });
});

describe('POST /api/fullvalidation', () => {
  it('answers 200 with the certificate for a paid token, and the same certificate when the token is repeated', async () => {
    const token = svc.gate.issue();
    const first = expectScanResult(
      await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token }),
    );
    const certificate = JSON.parse(first.content[1]!.text) as {
      payload: { domain: string; verdict: string };
      jws: string;
    };
    expect(certificate.payload.domain).toBe('good.test');
    expect(certificate.jws).toMatch(/^[\w-]+\.\.[\w-]+$/);
    const again = expectScanResult(
      await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token }),
    );
    expect(again.content[1]!.text).toBe(first.content[1]!.text);
  });

  it('answers 402 without a token, with a clear message when it came in the Authorization header', async () => {
    expectError(
      await svc.post('/api/fullvalidation', { domain: 'good.test' }),
      402,
      /payment_token is required.*\/checkout/,
      'payment_required',
    );
    expectError(
      await svc.post('/api/fullvalidation', { domain: 'good.test' }, { authorization: 'Bearer tok_abc' }),
      402,
      /Authorization header is never accepted/,
      'payment_required',
    );
  });

  it('answers 402 for an unknown token and for a token that paid for another domain', async () => {
    expectError(
      await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: 'tok_unknown' }),
      402,
      /not known/,
      'payment_required',
    );
    const token = svc.gate.issue();
    expectScanResult(await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: token }));
    expectError(
      await svc.post('/api/fullvalidation', { domain: 'www.good.test', payment_token: token }),
      402,
      /paid for good\.test/,
      'token_used',
    );
  });

  it('answers 200 with isError for a domain that does not resolve, without touching the token', async () => {
    const token = svc.gate.issue();
    const result = expectScanResult(
      await svc.post('/api/fullvalidation', { domain: 'nxdomain.test', payment_token: token }),
    );
    expect(result.isError).toBe(true);
    expect(svc.gate.state(token)).toBe('unused');
  });

  it('answers 400 for invalid input before looking at the token', async () => {
    expectError(
      await svc.post('/api/fullvalidation', { domain: 'https://good.test', payment_token: 'x' }),
      400,
      /invalid domain/,
      'invalid_domain',
    );
    expectError(
      await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: 'x', extra: 1 }),
      400,
      /unknown field "extra"/,
    );
    expectError(
      await svc.post('/api/fullvalidation', { domain: 'good.test', payment_token: 7 }),
      400,
      /payment_token must be a string/,
    );
  });
});

describe('no request body gets a 5xx', () => {
  const contentTypes = [
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/merge-patch+json',
    '',
  ];
  const jsonValue = fc.oneof(
    fc.record({ domain: fc.string({ maxLength: 300 }) }),
    fc.record({ domain: fc.string({ maxLength: 80 }), payment_token: fc.string({ maxLength: 250 }) }),
    fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    fc.jsonValue({ maxDepth: 3 }),
  );
  const body = fc.oneof(
    jsonValue.map((v) => JSON.stringify(v) ?? 'null'),
    fc.string({ maxLength: 200 }),
    fc.constant(''),
  );

  it('for either operation, any body and any content type', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/quickscan', '/api/fullvalidation'),
        body,
        fc.constantFrom(...contentTypes),
        async (pathname, text, type) => {
          const res = await svc.call('POST', pathname, { body: text, headers: type ? { 'content-type': type } : {} });
          expect(res.status, `${pathname} ${type} ${text} -> ${res.text}`).toBeLessThan(500);
          expect(res.json()).toBeTypeOf('object');
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);
});
