// The security_txt facet: /.well-known/security.txt parsed per RFC 9116, its OpenPGP signature checked, and the
// response of the legacy top-level /security.txt (which may redirect to the well-known one).
import { parseSecurityTxt, type ParsedSecurityTxt } from './parse-security-txt.ts';
import { lineExcerpt, type LinePointer } from '../shared/line-excerpt.ts';
import { decodeUtf8 } from './text.ts';
import { uriHost } from '../shared/uri.ts';
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import type { ProbeContext } from '../../src/engine/types.ts';

/** Key files fetched per scan: enough for a current and a next key. */
const MAX_KEY_URLS = 3;
const KEY_BYTES = 64 * 1024;

/** The Encryption URLs on the site's own hosts: https, the scanned domain or one of its subdomains. */
function keyUrls(encryption: string[], domain: string): string[] {
  return encryption
    .filter((u) => /^https:/i.test(u))
    .filter((u) => {
      const host = uriHost(u);
      return host !== null && (host === domain || host.endsWith(`.${domain}`));
    })
    .slice(0, MAX_KEY_URLS);
}

async function checkSignature(f: DocumentFetcher, body: Uint8Array, encryption: string[], observedAt: string) {
  // OpenPGP is imported for a signed security.txt only: most sites sign none, and the library is large.
  const { checkCleartextSignature, readPublicKeys } = await import('./openpgp-signature.ts');
  const key_urls = keyUrls(encryption, f.domain);
  const files = await Promise.all(key_urls.map((u) => f.open(u, { maxBytes: KEY_BYTES })));
  const keys = await readPublicKeys(files.flatMap((k) => (k.published && k.exchange ? [k.exchange.body] : [])));
  const check = await checkCleartextSignature(decodeUtf8(body).text, keys, observedAt);
  return {
    verification: check.verification,
    key_id: check.keyId,
    created: check.created,
    error: check.error,
    key_urls,
    keys_read: keys.length,
  };
}

/**
 * The lines the facts point at, most telling first: those that break the grammar, the Expires lines, the fields
 * with an http: URI, the fields outside the registry, then every registered field by name.
 */
function* securityTxtPointers(p: ParsedSecurityTxt): Generator<LinePointer> {
  for (const e of p.errors) yield ['parse_errors', e.line];
  for (const f of p.fieldLines) if (f.field === 'expires') yield ['expires', f.line];
  for (const f of p.fieldLines) if (f.insecure) yield ['insecure_uris', f.line];
  for (const f of p.fieldLines) if (f.field === 'unknown') yield ['unknown_fields', f.line];
  for (const f of p.fieldLines) if (f.field !== 'unknown') yield [`fields.${f.field.replace('-', '_')}`, f.line];
}

export async function collectSecurityTxt(f: DocumentFetcher, ctx: ProbeContext) {
  const [file, legacy] = await Promise.all([f.open('/.well-known/security.txt'), f.open('/security.txt')]);
  const { published, document, exchange: ex } = file;
  const p = published && ex ? parseSecurityTxt(ex.body, ex.truncated) : null;
  const signature =
    p?.signed && ex && ctx.needs('wellknown.security_txt.signature')
      ? await checkSignature(f, ex.body, p.fields.encryption, ctx.observedAt)
      : null;
  return {
    published,
    document,
    legacy: { published: legacy.published, document: legacy.document },
    https: ex ? ex.url.startsWith('https:') : null,
    signed: p?.signed ?? null,
    signature_complete: p?.signatureComplete ?? null,
    signature,
    fields: p
      ? {
          acknowledgments: p.fields.acknowledgments,
          canonical: p.fields.canonical,
          contact: p.fields.contact,
          csaf: p.fields.csaf,
          encryption: p.fields.encryption,
          expires: p.fields.expires,
          hiring: p.fields.hiring,
          policy: p.fields.policy,
          preferred_languages: p.fields['preferred-languages'],
        }
      : null,
    unknown_fields: p?.unknownFields ?? null,
    expires: p?.expires ?? null,
    insecure_uris: p?.insecureUris ?? null,
    parse_errors: p?.errors ?? null,
    excerpt: p ? lineExcerpt(p.text, securityTxtPointers(p)) : null,
  };
}
