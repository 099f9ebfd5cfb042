// CSP source expressions against Chromium's parser tests (github.com/chromium/chromium,
// services/network/public/cpp/content_security_policy/content_security_policy_unittest.cc, commit 03a95d114baa,
// TEST ParseFrameAncestors): each value of a `frame-ancestors` directive and the sources Chromium keeps from it.
// Chromium's parsed sources (scheme, host, port, path, wildcards, 'self', '*') are written here as source text;
// an expression Chromium drops keeps no source. Disagreements are judged below.
import { describe, expect, it } from 'vitest';
import { parseCspList } from '../../../../plugins/http/parse-csp.ts';
import { expectAgreement } from '../../suite-agreement.ts';

/** [directive value, the sources kept]. */
const CASES: [string, string[]][] = [
  [':', []],
  ['a:', ['a:']],
  ['1ba:', []],
  ['-:', []],
  ['abcd:', ['abcd:']],
  ['a123:', ['a123:']],
  ['a+-:', ['a+-:']],
  ['a1+-:', ['a1+-:']],
  ['wrong_scheme', []],
  ['wrong_scheme://', []],
  ['*.', []],
  ['*.a', ['*.a']],
  ['a.*', []],
  ['a.*.b', []],
  ['*a', []],
  ['a', ['a']],
  ['a.b.c', ['a.b.c']],
  ['.b.c', []],
  ['a..c', []],
  ['a.', ['a.']],
  ['a.b.', ['a.b.']],
  ['az09-', ['az09-']],
  ['+', []],
  ['---.com', ['---.com']],
  ['scheme://host:', []],
  ['a:80', ['a:80']],
  ['a:*', ['a:*']],
  ['a:000', ['a:0']],
  ['a:0', ['a:0']],
  ['a:-1', []],
  ['a:+1', []],
  ['example.com/%48%65%6c%6c%6f%20%57%6f%72%6c%64', ['example.com/Hello World']],
  ["'none'", []],
  ["'self'", ["'self'"]],
  ['*', ['*']],
  ["example.com 'none'", ['example.com']],
  ['*:*', ['*:*']],
  ['http:', ['http:']],
  ['https://*', ['https://*']],
  ['http:/example.com', []],
  ['http://', []],
  ['example.com', ['example.com']],
  ['example.com/path', ['example.com/path']],
  ['https://example.com', ['https://example.com']],
  ['https://example.com/path', ['https://example.com/path']],
  ['https://example.com:1234', ['https://example.com:1234']],
  ['https://example.com:2345/some/path', ['https://example.com:2345/some/path']],
  ['example.com example.org', ['example.com', 'example.org']],
  ['example.com\texample.org', ['example.com', 'example.org']],
  ['about:blank', []],
  ['', []],
];

/** Chromium stores a port as a number and a path percent-decoded; our facts keep both as written. */
function asChromiumStores(source: string): string {
  const m = /^((?:[a-z][a-z0-9+.-]*:\/\/)?[^/:]+)(?::(\d+|\*))?(\/.*)?$/.exec(source);
  if (m === null || source.startsWith("'")) return source;
  const port = m[2] === undefined ? '' : `:${m[2] === '*' ? '*' : Number(m[2])}`;
  return `${m[1]}${port}${m[3] === undefined ? '' : decodeURIComponent(m[3])}`;
}

/** The sources we keep; `'none'` is no source (and, beside others, an error we report). */
function kept(value: string): string[] {
  const [policy] = parseCspList(`frame-ancestors ${value}`);
  return (policy?.directives['frame-ancestors'] ?? []).filter((s) => s !== "'none'").map(asChromiumStores);
}

const outcomes = CASES.map(([value, expected]) => ({
  id: JSON.stringify(value),
  agrees: JSON.stringify(kept(value)) === JSON.stringify(expected),
}));

describe('CSP source expressions against Chromium (ParseFrameAncestors)', () => {
  it.each(outcomes)('$id', ({ agrees }) => expect(agrees).toBe(true));

  it('agrees on every case', () => {
    expectAgreement('Chromium CSP sources', outcomes, {});
  });
});
