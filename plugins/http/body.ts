// Response bodies: decoding to text with the declared (or meta-sniffed) charset, and hashing. Whether a body
// is an HTML page is the one test every probe shares (plugins/shared/sniff-html.ts).
import { createHash } from 'node:crypto';

/** Decodes a body; the charset comes from Content-Type, else a <meta> in the first 1024 bytes, else UTF-8. */
export function decodeBody(body: Buffer, headerCharset: string | null): string {
  const sniffed = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(body.subarray(0, 1024).toString('latin1'))?.[1] ?? null;
  for (const label of [headerCharset, sniffed, 'utf-8']) {
    if (label === null) continue;
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      // an unknown label: try the next source
    }
  }
  return body.toString('utf8');
}

export function sha256(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}
