import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseSourceExpression } from '../../../plugins/http/csp-source.ts';
import { parseCspList } from '../../../plugins/http/parse-csp.ts';
import { canonicalJson } from '../../../src/lib/canonical-json.ts';

function one(header: string) {
  const [policy] = parseCspList(header);
  if (!policy) throw new Error('no policy parsed');
  return policy;
}

describe('CSP: examples of CSP Level 3', () => {
  it('section 1.2: a script allow-list and no plugins', () => {
    const p = one("script-src https://cdn.example.com/scripts/; object-src 'none'");
    expect(p.directives).toEqual({ 'script-src': ['https://cdn.example.com/scripts/'], 'object-src': ["'none'"] });
    expect(p.script_elem).toEqual({
      directive: 'script-src',
      sources: ['https://cdn.example.com/scripts/'],
      inline_allowed: false,
    });
    expect(p.object).toEqual({ directive: 'object-src', sources: ["'none'"], inline_allowed: null });
  });

  it('section 2.3.1: the source expressions its grammar comments give', () => {
    const kinds = [
      'https:',
      'custom-scheme:',
      'another.custom-scheme:',
      'example.com',
      '*.example.com',
      'https://*.example.com:12/path/to/file.js',
    ].map((s) => parseSourceExpression(s).kind);
    expect(kinds).toEqual(['scheme', 'scheme', 'scheme', 'host', 'host', 'host']);
  });

  it("section 8.2: 'strict-dynamic' with a nonce", () => {
    const p = one("script-src 'nonce-DhcnhD3khTMePgXwdayK9BsMqXjhguVV' 'strict-dynamic'");
    expect(p.syntax_errors).toEqual([]);
    expect(p.script_elem.inline_allowed).toBe(false);
  });

  it("section 8.2: beside 'strict-dynamic', a script list's host and scheme sources are not enforced", () => {
    // The strict-CSP pattern: "https: http:" are there for browsers that predate 'strict-dynamic'.
    const p = one("script-src 'nonce-r4nd0m' 'unsafe-inline' 'strict-dynamic' https: http:; img-src http://cdn.test");
    expect(p.sources).toEqual([
      "'nonce-r4nd0m'",
      "'strict-dynamic'",
      "'unsafe-inline'",
      'http:',
      'http://cdn.test',
      'https:',
    ]);
    expect(p.enforced_sources).toEqual(["'nonce-r4nd0m'", "'strict-dynamic'", "'unsafe-inline'", 'http://cdn.test']);
    // Elsewhere, and in a script list without 'strict-dynamic', every source counts.
    expect(one("default-src 'strict-dynamic' http:").enforced_sources).toEqual(["'strict-dynamic'", 'http:']);
    expect(one("script-src 'nonce-r4nd0m' http:").enforced_sources).toEqual(["'nonce-r4nd0m'", 'http:']);
  });

  it("section 8.3: 'unsafe-hashes' with a hash", () => {
    const p = one("script-src 'unsafe-hashes' 'sha256-jzgBGA4UWFFmpOBq0JpdsySukE1FrEN5bUpoK8Z29fY='");
    expect(p.directives['script-src']).toEqual([
      "'unsafe-hashes'",
      "'sha256-jzgBGA4UWFFmpOBq0JpdsySukE1FrEN5bUpoK8Z29fY='",
    ]);
    expect(p.syntax_errors).toEqual([]);
  });
});

const alpha = fc.constantFrom(...'abcxyzABCXYZ'.split(''));
const alnum = fc.constantFrom(...'abcxyzABC0189-'.split(''));
const label = fc
  .tuple(fc.constantFrom('a', 'b', 'Z', '0'), fc.string({ unit: alnum, maxLength: 6 }))
  .map(([a, b]) => a + b);
const host = fc.oneof(
  fc.constant('*'),
  fc
    .tuple(fc.boolean(), fc.array(label, { minLength: 1, maxLength: 3 }))
    .map(([star, ls]) => `${star ? '*.' : ''}${ls.join('.')}`),
);
const scheme = fc
  .tuple(alpha, fc.string({ unit: fc.constantFrom('a', '1', '+', '-', '.'), maxLength: 5 }))
  .map(([a, b]) => a + b);
const path = fc
  .array(
    fc.string({
      unit: fc.constantFrom(...'abc09-._~%!$&()*+=:@'.split('')).filter((c) => c !== '%'),
      minLength: 1,
      maxLength: 5,
    }),
    { maxLength: 3 },
  )
  .map((segs) => (segs.length === 0 ? '/' : `/${segs.join('/')}`));
const base64 = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...'aZ09+/-_'.split('')), minLength: 1, maxLength: 20 }),
    fc.constantFrom('', '=', '=='),
  )
  .map(([v, pad]) => v + pad);
const KEYWORDS = [
  "'self'",
  "'unsafe-inline'",
  "'unsafe-eval'",
  "'strict-dynamic'",
  "'unsafe-hashes'",
  "'report-sample'",
  "'wasm-unsafe-eval'",
];

/** A source expression from the grammar, with its kind and normalised text. */
const sourceExpression = fc.oneof(
  scheme.map((s) => ({ text: `${s}:`, kind: 'scheme', norm: `${s.toLowerCase()}:` })),
  fc
    .record({
      scheme: fc.option(scheme),
      host,
      port: fc.option(fc.oneof(fc.nat({ max: 65535 }).map(String), fc.constant('*'))),
      path: fc.option(path),
    })
    .map((r) => {
      const head = r.scheme === null ? '' : `${r.scheme}://`;
      const tail = `${r.port === null ? '' : `:${r.port}`}${r.path ?? ''}`;
      return {
        text: `${head}${r.host}${tail}`,
        kind: 'host',
        norm: `${head.toLowerCase()}${r.host.toLowerCase()}${tail}`,
      };
    }),
  fc.constantFrom(...KEYWORDS).map((k) => ({ text: k.toUpperCase(), kind: 'keyword', norm: k })),
  base64.map((v) => ({ text: `'nonce-${v}'`, kind: 'nonce', norm: `'nonce-${v}'` })),
  fc
    .tuple(fc.constantFrom('sha256', 'SHA384', 'sha512'), base64)
    .map(([a, v]) => ({ text: `'${a}-${v}'`, kind: 'hash', norm: `'${a.toLowerCase()}-${v}'` })),
);
const ws = fc.constantFrom(' ', '\t', '  ', '\n');

describe('CSP: policies generated from the grammar', () => {
  it('every source expression is read as its production, normalised', () => {
    fc.assert(
      fc.property(sourceExpression, ({ text, kind, norm }) => {
        expect(parseSourceExpression(text)).toEqual({ kind, text: norm });
      }),
    );
  });

  it('a serialized policy parses into its directives, first occurrence kept', () => {
    const directive = fc.tuple(
      fc.constantFrom('default-src', 'script-src', 'SCRIPT-SRC-ELEM', 'img-src', 'style-src'),
      fc.array(sourceExpression, { minLength: 1, maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(directive, { minLength: 1, maxLength: 5 }), ws, (directives, sep) => {
        const text = directives
          .map(([name, sources]) => `${name}${sep}${sources.map((s) => s.text).join(sep)}`)
          .join(`${sep};${sep}`);
        const p = one(text);
        const expected: Record<string, string[]> = {};
        for (const [name, sources] of directives) expected[name.toLowerCase()] ??= sources.map((s) => s.norm);
        expect(p.directives).toEqual(expected);
        expect(p.syntax_errors).toEqual([]);
      }),
    );
  });
});

describe('CSP: mutations that break one production are refused, naming it', () => {
  it.each([
    ["'nonce-ab!c'", 'nonce-source'],
    ["'nonce-'", 'nonce-source'],
    ["'sha256-'", 'hash-source'],
    ["'sha1-abcd'", 'hash-source'],
    ["'selff'", 'keyword-source'],
    ['self', 'host-part'], // unquoted keywords are host names: valid, and they match a host called "self"
    ['exa_mple.com', 'host-part'],
    ['example.com:8x', 'port-part'],
    ['example.com/a\\b', 'path-part'],
    ['example.com/a"b', 'path-part'],
    ['example.com//b', 'path-part'],
    ['1http://example.com', 'scheme-part'],
    ['*.*.example.com', 'host-part'],
  ])('%s', (expression, production) => {
    if (expression === 'self') {
      expect(parseSourceExpression(expression).kind).toBe('host');
      return;
    }
    expect(() => parseSourceExpression(expression)).toThrow(new RegExp(`^${production}:`));
    const p = one(`script-src ${expression}`);
    expect(p.syntax_errors.some((e) => e.startsWith(`script-src: ${production}:`))).toBe(true);
    expect(p.directives['script-src']).toEqual([]);
  });

  it("'none' with other sources breaks serialized-source-list", () => {
    expect(one("object-src 'none' 'self'").syntax_errors).toEqual([
      "object-src: serialized-source-list: 'none' must stand alone (browsers then ignore it)",
    ]);
  });

  it('an invalid directive name is reported, not taken as unknown', () => {
    const p = one("scr@pt-src 'self'");
    expect(p.syntax_errors).toEqual(['directive-name: "scr@pt-src" is not a directive name']);
    expect(p.unknown_directives).toEqual([]);
  });
});

describe('CSP: what governs scripts and styles', () => {
  it('follows the fallback lists of section 6.8.3', () => {
    const p = one(
      "default-src 'self'; script-src https://a.example; script-src-elem https://b.example; style-src 'unsafe-inline'",
    );
    expect(p.script_elem).toMatchObject({ directive: 'script-src-elem', sources: ['https://b.example'] });
    expect(p.script_attr).toMatchObject({ directive: 'script-src', sources: ['https://a.example'] });
    expect(p.script).toMatchObject({ directive: 'script-src' });
    expect(p.style_elem).toMatchObject({ directive: 'style-src', inline_allowed: true });
    expect(p.object).toMatchObject({ directive: 'default-src', sources: ["'self'"] });
  });

  it('with no governing directive, everything is allowed', () => {
    const p = one("img-src 'self'");
    expect(p.script_elem).toEqual({ directive: null, sources: [], inline_allowed: true });
  });

  it("a well-formed nonce or hash, or 'strict-dynamic' for scripts, cancels 'unsafe-inline'; a malformed one does not", () => {
    expect(one("script-src 'unsafe-inline' 'nonce-abc123'").script_elem.inline_allowed).toBe(false);
    expect(one("script-src 'unsafe-inline' 'sha384-abc='").script_elem.inline_allowed).toBe(false);
    expect(one("script-src 'unsafe-inline' 'strict-dynamic'").script_elem.inline_allowed).toBe(false);
    expect(one("script-src 'unsafe-inline' 'nonce-'").script_elem.inline_allowed).toBe(true);
    expect(one("script-src 'unsafe-inline' 'sha1-abc='").script_elem.inline_allowed).toBe(true);
    expect(one("style-src 'unsafe-inline' 'strict-dynamic'").style_elem.inline_allowed).toBe(true);
  });

  it('a script-src-elem without unsafe-inline blocks inline <script> even when script-src allows it', () => {
    const p = one("script-src 'unsafe-inline'; script-src-elem 'self'");
    expect(p.script_elem.inline_allowed).toBe(false);
    expect(p.script_attr.inline_allowed).toBe(true);
  });
});

describe('CSP: the serialized CSP list and directive parsing', () => {
  it('splits comma-joined policies and drops empty ones', () => {
    expect(parseCspList("default-src 'self', , script-src 'none'").map((p) => Object.keys(p.directives))).toEqual([
      ['default-src'],
      ['script-src'],
    ]);
    expect(parseCspList(null)).toEqual([]);
  });

  it('keeps the first of a repeated directive, lists unknown ones and skips non-ASCII tokens', () => {
    const p = one("img-src 'self'; IMG-SRC *; scrpt-src 'self'; font-src 'sélf'; report-to default");
    expect(p.duplicate_directives).toEqual(['img-src']);
    expect(p.directives['img-src']).toEqual(["'self'"]);
    expect(p.unknown_directives).toEqual(['scrpt-src']);
    expect(Object.hasOwn(p.directives, 'font-src')).toBe(false);
    expect(p.report_to).toEqual(['default']);
  });

  it('keeps a directive named __proto__ or constructor as a directive: the policy stays plain data', () => {
    const p = one("__proto__ 'self'; constructor x; default-src 'self'");
    expect(Object.keys(p.directives)).toEqual(['__proto__', 'constructor', 'default-src']);
    expect(p.syntax_errors).toContain('directive-name: "__proto__" is not a directive name');
    expect(() => canonicalJson(p)).not.toThrow();
  });

  it('collects every valid source for the rules, and never throws', () => {
    expect(one('default-src https:; img-src http://cdn.example ws://x.example').sources).toEqual([
      'http://cdn.example',
      'https:',
      'ws://x.example',
    ]);
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const p of parseCspList(s)) expect(p.raw.length).toBeGreaterThan(0);
      }),
    );
  });
});
