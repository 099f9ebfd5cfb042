// Response integrity: every response the Koa layer writes carries a Content-Digest (RFC 9530) of its bytes and
// an RFC 9421 signature over the status, that digest and the content type, made with the key that signs
// certificates, so a caller can check a result came from this service unaltered. MCP answers on the raw
// response (ctx.respond = false) and is not covered. A response that carries its own signature (the Web Bot
// Auth key directory, signed as its draft requires) keeps it alone: verifiers of that profile accept exactly
// one signature per message, so a second one beside it would make the directory unverifiable for them.
import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { createSigner, httpbis } from 'http-message-signatures';
import type { SigningKeySource } from '../signing/key-store.ts';
import type { SigningKey } from '../signing/keys.ts';

export const RESPONSE_SIGNATURE_LABEL = 'sig1';
export const RESPONSE_SIGNATURE_FIELDS = ['@status', 'content-digest', 'content-type'];

function contentDigest(bytes: Buffer): string {
  return `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`;
}

/** The body as the bytes Koa will send, or null for a stream (none of the signed routes streams). */
function bodyBytes(ctx: Context): Buffer | null {
  const body: unknown = ctx.body;
  if (body == null) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (typeof (body as { pipe?: unknown }).pipe === 'function') return null;
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/** The library keeps the spelling of a header it merged into, and uses its own for a new one. */
function headerOf(headers: Record<string, string | string[]>, name: string): string {
  const found = Object.entries(headers).find(([k]) => k.toLowerCase() === name);
  return found ? String(found[1]) : '';
}

export function signResponses(keys: SigningKeySource): Middleware {
  // One signer per key: rebuilt only when a rotation hands over a new key.
  let signerOf: { key: SigningKey; signer: ReturnType<typeof createSigner> } | null = null;
  const signerFor = (key: SigningKey) =>
    signerOf?.key === key
      ? signerOf.signer
      : (signerOf = { key, signer: createSigner(key.privateKeyObject, 'ed25519', key.kid) }).signer;
  return async function signResponse(ctx, next) {
    await next();
    // A 304 has no content to vouch for: the client reuses the signed response it revalidated.
    if (ctx.respond === false || ctx.status === 304) return;
    const bytes = bodyBytes(ctx);
    if (bytes === null) return;
    // Fix the bytes now, so the digest is over exactly what is sent (the content type set with the body stays).
    if (!ctx.response.get('Content-Type')) ctx.type = 'application/octet-stream';
    const status = ctx.status;
    ctx.body = bytes;
    ctx.status = status;
    ctx.set('Content-Digest', contentDigest(bytes));
    if (ctx.response.get('Signature')) return;
    const headers: Record<string, string> = {
      'content-digest': ctx.response.get('Content-Digest'),
      'content-type': ctx.response.get('Content-Type'),
    };
    const key = await keys.current();
    const signed = await httpbis.signMessage(
      {
        key: signerFor(key),
        name: RESPONSE_SIGNATURE_LABEL,
        fields: RESPONSE_SIGNATURE_FIELDS,
        params: ['created', 'keyid', 'alg'],
        paramValues: { keyid: key.kid, alg: 'ed25519' },
      },
      { status, headers },
    );
    ctx.set('Signature-Input', headerOf(signed.headers, 'signature-input'));
    ctx.set('Signature', headerOf(signed.headers, 'signature'));
  };
}
