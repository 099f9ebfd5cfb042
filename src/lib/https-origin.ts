// What an issuer is: a plain https origin (scheme, host, optional port), nothing more. User-info, paths,
// queries and fragments let a URL look like one host and reach another, so a certificate or a trust list
// naming one is refused rather than normalised.

/** Why the text is not a plain https origin, or null when it is one (exactly as the URL spec serialises it). */
export function originProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:') return 'not https';
  if (url.username !== '' || url.password !== '') return 'it carries user-info (user@host)';
  if (text.endsWith('/') || url.pathname !== '/' || url.search !== '' || url.hash !== '')
    return 'it has a path, query or fragment';
  if (url.origin !== text) return `it is not written as its origin ${url.origin}`;
  return null;
}

export const isPlainHttpsOrigin = (text: string): boolean => originProblem(text) === null;
