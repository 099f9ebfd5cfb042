// Response integrity: every response the Koa layer writes carries a Content-Digest (RFC 9530) of its bytes and
// an RFC 9421 signature over the status, that digest and the content type, made with the key that signs
// certificates, so a caller can check a result came from this service unaltered. An answer sent in a content
// coding (the Quick Scan's, see content-coding.ts) is digested as sent, coded, and its Content-Encoding is
// signed. MCP answers on the raw response (ctx.respond = false) and is not covered. A response that carries its
// own signature (the Web Bot Auth key directory, signed as its draft requires) keeps it alone: verifiers of that
// profile accept exactly one signature per message, so a second one beside it would make the directory
// unverifiable for them.
import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { createSigner, httpbis } from 'http-message-signatures';
import type { SigningKeySource } from '../../signing/key-store.ts';
import type { SigningKey } from '../../signing/keys.ts';

export const RESPONSE_SIGNATURE_LABEL = 'sig1';
export const RESPONSE_SIGNATURE_FIELDS = ['@status', 'content-digest', 'content-type'];
/** The fields signed on an answer sent in a content coding (Content-Encoding set). */
export const CODED_RESPONSE_SIGNATURE_FIELDS = [...RESPONSE_SIGNATURE_FIELDS, 'content-encoding'];

const digests = new WeakMap<Buffer, string>();

/** The Content-Digest of a body, memoised per buffer: a cached result is sent as the same buffer every time. */
export function contentDigest(bytes: Buffer): string {
  let digest = digests.get(bytes);
  if (digest === undefined) {
    digest = `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`;
    digests.set(bytes, digest);
  }
  return digest;
}

/** Signatures kept for the current second, by what they cover. */
const MAX_KEPT_SIGNATURES = 256;

/**
 * RFC 9421 `created` is a whole second, and Ed25519 is deterministic: every signature over the same status,
 * digest and content type made within one second is the same bytes. So a signature is kept for the rest of its
 * second and reused, which is exactly what signing again would give; `created` stays the time of sending to
 * the second, as a verifier's freshness check expects. A new second starts a new set.
 */
class SecondSignatures {
  private second = -1;
  private readonly kept = new Map<string, ResponseSignature>();

  get(created: number, key: string): ResponseSignature | undefined {
    if (created !== this.second) {
      this.second = created;
      this.kept.clear();
    }
    return this.kept.get(key);
  }

  set(key: string, value: ResponseSignature): void {
    if (this.kept.size < MAX_KEPT_SIGNATURES) this.kept.set(key, value);
  }
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

/** A response's Signature-Input and Signature fields. */
export interface ResponseSignature {
  input: string;
  signature: string;
}

/** Signs responses with the service's current key (a rotation takes effect at the next response). */
export class ResponseSigner {
  // One signer per key: rebuilt only when a rotation hands over a new key.
  private signerOf: { key: SigningKey; signer: ReturnType<typeof createSigner> } | null = null;
  private readonly recent = new SecondSignatures();

  constructor(private readonly keys: SigningKeySource) {}

  private signerFor(key: SigningKey) {
    if (this.signerOf?.key !== key)
      this.signerOf = { key, signer: createSigner(key.privateKeyObject, 'ed25519', key.kid) };
    return this.signerOf.signer;
  }

  /** The signature over a response's status, Content-Digest, Content-Type and Content-Encoding (if any). */
  async sign(status: number, digest: string, contentType: string, encoding: string): Promise<ResponseSignature> {
    const key = this.keys.settled?.() ?? (await this.keys.current());
    const created = Math.floor(Date.now() / 1000);
    // The key id is part of the key: a rotated signing key must not reuse the old key's signature.
    const covered = `${key.kid}|${status}|${digest}|${contentType}|${encoding}`;
    const kept = this.recent.get(created, covered);
    if (kept) return kept;
    const headers: Record<string, string> = { 'content-digest': digest, 'content-type': contentType };
    // A coded answer's digest is over the coded bytes; the coding is signed too, so how to read them is vouched for.
    if (encoding) headers['content-encoding'] = encoding;
    const signed = await httpbis.signMessage(
      {
        key: this.signerFor(key),
        name: RESPONSE_SIGNATURE_LABEL,
        fields: encoding ? CODED_RESPONSE_SIGNATURE_FIELDS : RESPONSE_SIGNATURE_FIELDS,
        params: ['created', 'keyid', 'alg'],
        paramValues: { keyid: key.kid, alg: 'ed25519', created: new Date(created * 1000) },
      },
      { status, headers },
    );
    const made = {
      input: headerOf(signed.headers, 'signature-input'),
      signature: headerOf(signed.headers, 'signature'),
    };
    this.recent.set(covered, made);
    return made;
  }
}

export function signResponses(signer: ResponseSigner): Middleware {
  return async function signResponse(ctx, next) {
    await next();
    // A 304 has no content to vouch for: the client reuses the signed response it revalidated. A 204 has none
    // either (Koa refuses a body on it, even an empty one).
    if (ctx.respond === false || ctx.status === 304 || ctx.status === 204) return;
    const bytes = bodyBytes(ctx);
    if (bytes === null) return;
    // Fix the bytes now, so the digest is over exactly what is sent (the content type set with the body stays).
    if (!ctx.response.get('Content-Type')) ctx.type = 'application/octet-stream';
    if (ctx.body !== bytes) {
      const status = ctx.status;
      ctx.body = bytes;
      ctx.status = status;
    }
    const digest = contentDigest(bytes);
    ctx.set('Content-Digest', digest);
    if (ctx.response.get('Signature')) return;
    const made = await signer.sign(
      ctx.status,
      digest,
      ctx.response.get('Content-Type'),
      ctx.response.get('Content-Encoding'),
    );
    ctx.set('Signature-Input', made.input);
    ctx.set('Signature', made.signature);
  };
}
