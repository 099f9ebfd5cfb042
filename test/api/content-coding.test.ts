// Choosing a response's content coding from Accept-Encoding (RFC 9110 section 12.5.3) and coding a body once.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseContentCoding, codedBytes, parseAcceptEncoding } from '../../src/api/http/content-coding.ts';

describe('parseAcceptEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['deflate', 'identity'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.5', 'br'],
    ['br;q=0, gzip;q=0.1', 'gzip'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0.4', 'gzip'],
    ['identity', 'identity'],
    ['identity;q=1, gzip;q=0.5', 'identity'],
    ['gzip;q=0.001', 'gzip'],
    ['br ; q=0.8 , gzip ; q=0.9', 'gzip'],
    // A malformed weight drops its element: br is not guessed at.
    ['br;q=2, gzip;q=0.3', 'gzip'],
    ['br;q=high', 'identity'],
    // Nothing acceptable: the header is disregarded and the plain bytes sent (section 15.5.7).
    ['identity;q=0', 'identity'],
    ['*;q=0', 'identity'],
    // The first mention of a coding counts.
    ['gzip;q=0, gzip', 'identity'],
  ])('%j gives %s', (header, coding) => {
    expect(parseAcceptEncoding(header)).toBe(coding);
  });

  it('answers the same through the remembered choice, past the bound of remembered values', () => {
    for (let i = 0; i < 200; i++) {
      const header = i % 2 ? `br;q=0.${i % 10}, gzip;q=0.95` : `gzip, x-${i}`;
      expect(chooseContentCoding(header)).toBe(parseAcceptEncoding(header));
      expect(chooseContentCoding(header)).toBe(parseAcceptEncoding(header));
    }
    const long = `${'x-unknown;q=0.5, '.repeat(40)}gzip;q=0.1`;
    expect(chooseContentCoding(long)).toBe('gzip');
    expect(chooseContentCoding(long)).toBe('gzip');
  });
});

describe('codedBytes', () => {
  const body = Buffer.from(JSON.stringify({ findings: Array.from({ length: 200 }, (_, i) => ({ id: `rule-${i}` })) }));

  it('codes a body in gzip and br that decode to the same bytes, once per body and coding', async () => {
    const first = codedBytes(body, 'gzip');
    expect(first).toBeInstanceOf(Promise);
    const [gz, br] = await Promise.all([first, codedBytes(body, 'br')]);
    expect(gunzipSync(gz).equals(body)).toBe(true);
    expect(brotliDecompressSync(br).equals(body)).toBe(true);
    expect(br.length).toBeLessThan(body.length / 4);
    // Made once: later requests get the same buffer, without waiting.
    expect(codedBytes(body, 'gzip')).toBe(gz);
    expect(codedBytes(body, 'br')).toBe(br);
    expect(codedBytes(body, 'identity')).toBe(body);
  });

  it('shares the coding of a body between requests that arrive before it is made', async () => {
    const other = Buffer.from(body);
    const [a, b] = await Promise.all([codedBytes(other, 'br'), codedBytes(other, 'br')]);
    expect(a).toBe(b);
  });
});
