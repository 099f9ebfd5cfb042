// Paths and origins the probe invents. Everything derived from the domain is deterministic, so two scans of one
// domain send the same requests.
import { createHash } from 'node:crypto';

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
