import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseCspList } from '../../../plugins/http/parse-csp.ts';

function one(header: string) {
  const [policy] = parseCspList(header);
  if (!policy) throw new Error('no policy parsed');
  return policy;
}

describe('parseCspList', () => {
  it('parses a strict policy into its directives and facts', () => {
    const p = one(
      "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; report-to default",
    );
    expect(p.directives['script-src']).toEqual(["'self'"]);
    expect(p).toMatchObject({
      script_unsafe_inline: false,
      script_unsafe_eval: false,
      script_data: false,
      script_wildcard: false,
      object_none: true,
      frame_ancestors: ["'none'"],
      base_uri: ["'self'"],
      form_action: null,
      reporting: true,
      insecure_sources: [],
      duplicate_directives: [],
      unknown_directives: [],
    });
  });

  it('falls back to default-src for scripts and objects', () => {
    const p = one("default-src 'self' data:");
    expect(p.script_src).toEqual(["'self'", 'data:']);
    expect(p.object_src).toEqual(["'self'", 'data:']);
    expect(p.script_data).toBe(true);
    expect(p.object_none).toBe(false);
  });

  it('treats a policy without script-src or default-src as not restricting scripts', () => {
    const p = one("img-src 'self'");
    expect(p.script_src).toBeNull();
    expect(p).toMatchObject({ script_unsafe_inline: true, script_unsafe_eval: true, script_wildcard: true });
  });

  it("ignores 'unsafe-inline' when a nonce, a hash or 'strict-dynamic' is present", () => {
    expect(one("script-src 'unsafe-inline'").script_unsafe_inline).toBe(true);
    expect(one("script-src 'unsafe-inline' 'nonce-R4nd0m'").script_unsafe_inline).toBe(false);
    expect(one("script-src 'unsafe-inline' 'sha256-abc='").script_unsafe_inline).toBe(false);
    expect(one("script-src 'unsafe-inline' 'strict-dynamic'").script_unsafe_inline).toBe(false);
  });

  it('keeps nonce values as sent and lower-cases keywords and hosts', () => {
    expect(one("SCRIPT-SRC 'SELF' 'NONCE-AbC' HTTPS://CDN.Example").directives['script-src']).toEqual([
      "'self'",
      "'nonce-AbC'",
      'https://cdn.example',
    ]);
  });

  it("honours 'strict-dynamic' over host and scheme wildcards", () => {
    expect(one("script-src https: 'nonce-x' 'strict-dynamic'").script_wildcard).toBe(false);
    expect(one('script-src https:').script_wildcard).toBe(true);
    expect(one('script-src *').script_wildcard).toBe(true);
  });

  it('lists plain-HTTP and ws sources but not report-uri', () => {
    const p = one("default-src 'self' http://cdn.example; connect-src ws://live.example; report-uri http://r.example/");
    expect(p.insecure_sources).toEqual(['http://cdn.example', 'ws://live.example']);
  });

  it('keeps the first of repeated directives and lists unknown ones', () => {
    const p = one("img-src 'self'; img-src *; scrpt-src 'self'");
    expect(p.directives['img-src']).toEqual(["'self'"]);
    expect(p.duplicate_directives).toEqual(['img-src']);
    expect(p.unknown_directives).toEqual(['scrpt-src']);
  });

  it('splits comma-joined headers into separate policies', () => {
    const policies = parseCspList("default-src 'self', script-src 'none'");
    expect(policies.map((p) => p.raw)).toEqual(["default-src 'self'", "script-src 'none'"]);
  });

  it('returns no policy for no header and never throws', () => {
    expect(parseCspList(null)).toEqual([]);
    fc.assert(fc.property(fc.string(), (s) => Array.isArray(parseCspList(s))));
  });
});
