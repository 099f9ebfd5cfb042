// How golden files are written so that their diffs show meaning only: reports pretty-printed in canonical key
// order, and observations without the fixture internet's random ports or the scan's timings.

/** Facts that measure time: zeroed in saved evidence; rules that read them are not compared after a fresh scan. */
export const TIMING_KEYS: ReadonlySet<string> = new Set(['ms', 'ttfb_ms', 'samples_ms', 'median_ttfb_ms']);
export const TIMING_FACTS: readonly string[] = ['http.timing'];

/** Canonical JSON (RFC 8785 key order), indented two spaces, one trailing newline. */
export function goldenJson(canonical: string): string {
  return JSON.stringify(JSON.parse(canonical), null, 2) + '\n';
}

/**
 * The observations as if the world served on the default ports: `https://good.test:42985/x` becomes
 * `https://good.test/x`, the same for every URL, so relations between URLs (same origin, redirects) hold.
 */
export function stableObservations<T>(observations: T, ports: { https: number; http: number }): T {
  const https = new RegExp(`(https://[^/\\s"':]+):${ports.https}(?=[/?#"\\s]|$)`, 'g');
  const http = new RegExp(`(http://[^/\\s"':]+):${ports.http}(?=[/?#"\\s]|$)`, 'g');
  const stable = (value: unknown, key: string): unknown => {
    if (TIMING_KEYS.has(key)) return Array.isArray(value) ? value.map(() => 0) : typeof value === 'number' ? 0 : value;
    if (typeof value === 'string') return value.replace(https, '$1').replace(http, '$1');
    if (Array.isArray(value)) return value.map((v) => stable(v, ''));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stable(v, k)]));
    }
    return value;
  };
  return stable(observations, '') as T;
}
