// A response body's JSON bytes, made once per body object: a cached Quick Scan answers every hit with the same
// result object, so serialising it (and, in response-signing.ts, digesting the bytes) happens once per entry.
const serialised = new WeakMap<object, Buffer>();

/** The UTF-8 bytes of `JSON.stringify(body)`, as Koa would send the object. */
export function jsonBytes(body: object): Buffer {
  let bytes = serialised.get(body);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(body), 'utf8');
    serialised.set(body, bytes);
  }
  return bytes;
}
