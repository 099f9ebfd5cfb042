// /.well-known/security.txt (RFC 9116). Expires is computed when served, so a long-running instance never
// publishes a stale file.
import type { Config } from '../../lib/config.ts';

/** How far ahead Expires lies; RFC 9116 advises less than a year. */
const SECURITY_TXT_LIFETIME_DAYS = 180;

export function securityTxt(opts: { baseUrl: string; securityTxt: Config['securityTxt'] }, now: Date): string {
  const expires = new Date(now.getTime() + SECURITY_TXT_LIFETIME_DAYS * 86_400_000);
  expires.setUTCMilliseconds(0);
  const lines = [
    `Contact: ${opts.securityTxt.contact}`,
    `Expires: ${expires.toISOString().replace('.000Z', 'Z')}`,
    `Canonical: ${opts.baseUrl}/.well-known/security.txt`,
    ...(opts.securityTxt.policy ? [`Policy: ${opts.securityTxt.policy}`] : []),
    'Preferred-Languages: en',
  ];
  return lines.join('\n') + '\n';
}
