// The security_txt facet: /.well-known/security.txt parsed per RFC 9116, and the response of the legacy
// top-level /security.txt (which may redirect to the well-known one).
import { parseSecurityTxt } from './parse-security-txt.ts';
import type { DocumentFetcher } from '../shared/fetch-document.ts';

export async function collectSecurityTxt(f: DocumentFetcher) {
  const [file, legacy] = await Promise.all([f.open('/.well-known/security.txt'), f.open('/security.txt')]);
  const { published, document, exchange: ex } = file;
  const p = published && ex ? parseSecurityTxt(ex.body, ex.truncated) : null;
  return {
    published,
    document,
    legacy: { published: legacy.published, document: legacy.document },
    https: ex ? ex.url.startsWith('https:') : null,
    signed: p?.signed ?? null,
    signature_complete: p?.signatureComplete ?? null,
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
  };
}
