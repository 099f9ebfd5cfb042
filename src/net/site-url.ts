// URLs on scanned hosts as probes request them. Probes reach a host on the configured ports (80/443 in
// production, the fixture world's ports in tests); a URL leaves the port out when it is the scheme's default.
import type { Net } from './types.ts';
import { normaliseName } from '../lib/domain-name.ts';

export type ProbePorts = Net['ports'];

const DEFAULT_PORT = { http: 80, https: 443 } as const;

/** `scheme://host[:port]/path`, with the port left out when it is the scheme's default. */
export function siteUrl(scheme: 'http' | 'https', host: string, ports: ProbePorts, path = '/'): string {
  const port = ports[scheme];
  return `${scheme}://${host}${port === DEFAULT_PORT[scheme] ? '' : `:${port}`}${path}`;
}

/**
 * The URL to request for a URL met in a response or a document: a default port means "the scanned service's
 * port", which is the configured probe port.
 */
export function probeUrl(url: URL, ports: ProbePorts): string {
  const u = new URL(url.href);
  const scheme = u.protocol === 'https:' ? 'https' : u.protocol === 'http:' ? 'http' : null;
  if (scheme !== null && u.port === '' && ports[scheme] !== DEFAULT_PORT[scheme]) u.port = String(ports[scheme]);
  return u.href;
}

/** The host is the scanned domain or one of its subdomains. */
export function onSite(host: string, domain: string): boolean {
  const h = normaliseName(host);
  return h === domain || h.endsWith(`.${domain}`);
}
