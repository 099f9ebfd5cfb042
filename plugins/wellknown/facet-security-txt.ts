// The security_txt facet: /.well-known/security.txt parsed per RFC 9116, and the response of the legacy
// top-level /security.txt (which may redirect to the well-known one).
import { parseSecurityTxt } from './parse-security-txt.ts';
import { isSuccess, type Fetcher } from './fetch-document.ts';

export async function collectSecurityTxt(f: Fetcher) {
  const [fetched, legacyFetched] = await Promise.all([f.get('/.well-known/security.txt'), f.get('/security.txt')]);
  const [document, legacy] = await Promise.all([f.document(fetched), f.document(legacyFetched)]);
  const ex = fetched.exchange;
  const p = isSuccess(document.status) && ex ? parseSecurityTxt(ex.body, ex.truncated) : null;
  return {
    document,
    legacy,
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
