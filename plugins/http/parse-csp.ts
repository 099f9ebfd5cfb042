// Content-Security-Policy (CSP Level 3, "parse a serialized CSP list") parsed into per-policy facts, with
// the fallbacks browsers apply (script-src and object-src fall back to default-src) resolved here so rules
// stay plain comparisons.
import type { CspPolicy } from './types.ts';

const KNOWN_DIRECTIVES = new Set([
  'base-uri',
  'block-all-mixed-content',
  'child-src',
  'connect-src',
  'default-src',
  'fenced-frame-src',
  'font-src',
  'form-action',
  'frame-ancestors',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'navigate-to',
  'object-src',
  'plugin-types',
  'prefetch-src',
  'report-to',
  'report-uri',
  'require-trusted-types-for',
  'sandbox',
  'script-src',
  'script-src-attr',
  'script-src-elem',
  'style-src',
  'style-src-attr',
  'style-src-elem',
  'trusted-types',
  'upgrade-insecure-requests',
  'webrtc',
  'worker-src',
]);

const DIRECTIVE_NAME = /^[a-z0-9-]+$/;
const NONCE_OR_HASH = /^'(nonce|sha256|sha384|sha512)-/;
const WILDCARDS = new Set(['*', 'http:', 'https:', 'http://*', 'https://*']);

/** Lower-cases a source expression except the case-sensitive value of a nonce or hash. */
function normaliseSource(source: string): string {
  const m = /^'(nonce|sha256|sha384|sha512)-(.*)'$/i.exec(source);
  return m ? `'${m[1]!.toLowerCase()}-${m[2]}'` : source.toLowerCase();
}

function parsePolicy(raw: string): CspPolicy {
  const directives: Record<string, string[]> = {};
  const duplicates = new Set<string>();
  const unknown = new Set<string>();
  for (const token of raw.split(';')) {
    const parts = token
      .trim()
      .split(/[\t\n\f\r ]+/)
      .filter((p) => p !== '');
    const first = parts[0];
    if (first === undefined) continue;
    const name = first.toLowerCase();
    if (!DIRECTIVE_NAME.test(name)) {
      unknown.add(name);
      continue;
    }
    // The first occurrence wins; browsers ignore a repeated directive.
    if (Object.hasOwn(directives, name)) {
      duplicates.add(name);
      continue;
    }
    if (!KNOWN_DIRECTIVES.has(name)) unknown.add(name);
    directives[name] = parts.slice(1).map(normaliseSource);
  }

  const scriptSrc = directives['script-src'] ?? directives['default-src'] ?? null;
  const objectSrc = directives['object-src'] ?? directives['default-src'] ?? null;
  const strictDynamic = scriptSrc?.includes("'strict-dynamic'") ?? false;
  const nonceOrHash = scriptSrc?.some((s) => NONCE_OR_HASH.test(s)) ?? false;
  const insecure = new Set<string>();
  for (const [name, sources] of Object.entries(directives)) {
    if (name === 'report-uri') continue;
    for (const s of sources) if (s.startsWith('http:') || s.startsWith('ws:')) insecure.add(s);
  }

  return {
    raw: raw.trim(),
    directives,
    duplicate_directives: [...duplicates].sort(),
    unknown_directives: [...unknown].sort(),
    script_src: scriptSrc,
    object_src: objectSrc,
    // CSP3: 'unsafe-inline' is ignored when a nonce, a hash or 'strict-dynamic' is present.
    script_unsafe_inline:
      scriptSrc === null || (scriptSrc.includes("'unsafe-inline'") && !nonceOrHash && !strictDynamic),
    script_unsafe_eval: scriptSrc === null || scriptSrc.includes("'unsafe-eval'"),
    // 'strict-dynamic' makes browsers ignore host and scheme sources.
    script_data: scriptSrc === null || (!strictDynamic && scriptSrc.includes('data:')),
    script_wildcard: scriptSrc === null || (!strictDynamic && scriptSrc.some((s) => WILDCARDS.has(s))),
    object_none: objectSrc !== null && objectSrc.length === 1 && objectSrc[0] === "'none'",
    insecure_sources: [...insecure].sort(),
    frame_ancestors: directives['frame-ancestors'] ?? null,
    base_uri: directives['base-uri'] ?? null,
    form_action: directives['form-action'] ?? null,
    reporting: Object.hasOwn(directives, 'report-uri') || Object.hasOwn(directives, 'report-to'),
  };
}

/** Parses a header value that may hold several policies (repeated headers arrive comma-joined). */
export function parseCspList(header: string | null): CspPolicy[] {
  if (header === null) return [];
  return header
    .split(',')
    .filter((p) => p.trim() !== '')
    .map(parsePolicy);
}
