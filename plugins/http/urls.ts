// URLs the probe requests. Everything derived from the domain is deterministic, so two scans of one domain
// send the same requests.
import { createHash } from 'node:crypto';

export interface Ports {
  http: number;
  https: number;
}

/** `scheme://host[:port]/path`, with the port left out when it is the scheme's default. */
export function siteUrl(scheme: 'http' | 'https', host: string, ports: Ports, path = '/'): string {
  const port = ports[scheme];
  const defaultPort = scheme === 'http' ? 80 : 443;
  return `${scheme}://${host}${port === defaultPort ? '' : `:${port}`}${path}`;
}

/**
 * The URL to request for a URL met in a response: a default port means "the scanned service's port", which is
 * the configured probe port (443/80 in production, the fixture world's ports in tests).
 */
export function probeUrl(url: URL, ports: Ports): string {
  const u = new URL(url.href);
  if (u.port === '' && (u.protocol === 'https:' || u.protocol === 'http:')) {
    const port = u.protocol === 'https:' ? ports.https : ports.http;
    if (port !== (u.protocol === 'https:' ? 443 : 80)) u.port = String(port);
  }
  return u.href;
}

function token(domain: string): string {
  return createHash('sha256').update(domain).digest('hex').slice(0, 16);
}

/** A path no site serves on purpose, named so its owner can tell where the request came from. */
export function notFoundPath(domain: string): string {
  return `/.dvs-probe-${token(domain)}-404`;
}

/** A foreign origin for the CORS probe, under the reserved `.example` name (RFC 2606). */
export function foreignOrigin(domain: string): string {
  return `https://${token(domain)}.dvs-origin-probe.example`;
}

/** The host is the domain or one of its subdomains. */
export function onSite(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === domain || h.endsWith(`.${domain}`);
}
