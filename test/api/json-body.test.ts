// The body read directly (no content coding, a declared length) means exactly what the body parser makes of the
// same bytes: the same value, or the same refusal. The parser is the reference, reached with the same bytes sent
// chunked (no declared length), which the direct read leaves to it.
import { Readable } from 'node:stream';
import { ServerResponse, type IncomingMessage } from 'node:http';
import fc from 'fast-check';
import Koa, { type Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../src/api/http/json-body.ts';

/** A Koa context over a request carrying `bytes`, with or without a declared length. */
function contextFor(bytes: Buffer, declared: boolean): Context {
  const req = Object.assign(Readable.from(bytes.length ? [bytes] : []), {
    method: 'POST',
    url: '/api/quickscan',
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    headers: {
      'content-type': 'application/json',
      ...(declared ? { 'content-length': String(bytes.length) } : { 'transfer-encoding': 'chunked' }),
    },
  }) as unknown as IncomingMessage;
  return new Koa().createContext(req, new ServerResponse(req));
}

type Outcome = { value: unknown } | { refused: { syntax: boolean; status: unknown; type: unknown } };

async function outcome(bytes: Buffer, declared: boolean): Promise<Outcome> {
  const ctx = contextFor(bytes, declared);
  try {
    await parseJsonBody(ctx);
    return { value: ctx.request.body };
  } catch (raw) {
    const err = raw as Error & { status?: number; type?: string };
    return { refused: { syntax: err instanceof SyntaxError, status: err.status, type: err.type } };
  }
}

const texts = fc.oneof(
  fc.json(),
  fc.string(),
  fc.json().map((j) => `\uFEFF${j}`),
  fc.json().map((j) => ` \t\r\n${j}`),
  fc
    .tuple(fc.jsonValue(), fc.constantFrom('"__proto__"', '"\\u005f_proto__"', '"__pr\\u006fto__"', '"__proto_"'))
    .map(([v, key]) => `{"a":[{${key}:${JSON.stringify(v)}}]}`),
);

describe('the JSON body read directly', () => {
  it('gives what the body parser gives for the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        const bytes = Buffer.from(text, 'utf8');
        expect(await outcome(bytes, true)).toEqual(await outcome(bytes, false));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a member named __proto__ however it is spelled, and takes an empty body as {}', async () => {
    for (const key of ['"__proto__"', '"\\u005f\\u005fproto__"']) {
      const got = await outcome(Buffer.from(`{"domain":"a.com","x":{${key}:{"polluted":true}}}`), true);
      expect(got).toEqual({ refused: { syntax: true, status: 400, type: undefined } });
    }
    expect(await outcome(Buffer.alloc(0), true)).toEqual({ value: {} });
    expect(await outcome(Buffer.from('"a string"'), true)).toMatchObject({ refused: { syntax: true, status: 400 } });
  });

  it('refuses a body that stops before its declared length as the parser does (400, request.aborted)', async () => {
    const req = Object.assign(
      new Readable({
        read() {
          this.push(Buffer.from('{"domain":'));
          this.destroy(new Error('aborted'));
        },
      }),
      { method: 'POST', url: '/api/quickscan', httpVersionMajor: 1, httpVersionMinor: 1, complete: false },
      { headers: { 'content-type': 'application/json', 'content-length': '22' } },
    ) as unknown as IncomingMessage;
    const ctx = new Koa().createContext(req, new ServerResponse(req));
    await expect(parseJsonBody(ctx)).rejects.toMatchObject({ status: 400, type: 'request.aborted' });
  });
});
