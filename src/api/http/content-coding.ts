// Content codings of a response body (RFC 9110 section 8.4): which one a request accepts (section 12.5.3) and
// the body's bytes in it. Koa's own negotiation (negotiator 0.6) breaks ties by the client's order, so "gzip,
// deflate, br" would get gzip; the service prefers br on a tie, then gzip, then identity.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { SPACE_OR_TAB, trimOf } from '../../lib/trim.ts';

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** The codings offered, in the service's order of preference on equal weight. */
export const CONTENT_CODINGS: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

/** Weight of identity when the header does not name it: acceptable, below every coding the client named. */
const UNNAMED_IDENTITY = 0.0001;

/** A qvalue per RFC 9110 section 12.4.2: 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The coding to send for an `Accept-Encoding` value (undefined: the header is absent). */
export function parseAcceptEncoding(header: string | undefined): ContentCoding {
  if (header === undefined) return 'identity';
  const weights = new Map<string, number>();
  for (const element of header.split(',')) {
    const [name = '', ...params] = element.split(';');
    const coding = trimOf(name, SPACE_OR_TAB).toLowerCase();
    if (coding === '' || weights.has(coding)) continue;
    let q = 1;
    for (const param of params) {
      const [k = '', v = ''] = param.split('=');
      if (trimOf(k, SPACE_OR_TAB).toLowerCase() !== 'q') continue;
      const value = trimOf(v, SPACE_OR_TAB);
      q = QVALUE.test(value) ? Number(value) : Number.NaN;
    }
    // An element with a malformed weight is ignored rather than guessed at.
    if (!Number.isNaN(q)) weights.set(coding, q);
  }
  // "x-gzip" is gzip's registered alias (RFC 9110 section 8.4.1.3).
  if (!weights.has('gzip') && weights.has('x-gzip')) weights.set('gzip', weights.get('x-gzip')!);
  const star = weights.get('*');
  let best: ContentCoding = 'identity';
  let bestWeight = 0;
  for (const coding of CONTENT_CODINGS) {
    const weight = weights.get(coding) ?? star ?? (coding === 'identity' ? UNNAMED_IDENTITY : 0);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  // Nothing acceptable (e.g. "identity;q=0" alone): section 15.5.7 lets the server disregard the header, which
  // answers a client that can read nothing else with the plain bytes instead of an error.
  return best;
}

/** Distinct header values remembered; clients send a handful, and a flood of new ones only costs a reparse. */
const MAX_REMEMBERED = 64;
/** Longer values are parsed each time rather than kept: real clients send a few dozen characters. */
const MAX_REMEMBERED_LENGTH = 256;
const chosen = new Map<string, ContentCoding>();

/** parseAcceptEncoding, remembered per distinct header value so a hot route parses each value once. */
export function chooseContentCoding(header: string | undefined): ContentCoding {
  if (header === undefined) return 'identity';
  let coding = chosen.get(header);
  if (coding === undefined) {
    coding = parseAcceptEncoding(header);
    if (header.length > MAX_REMEMBERED_LENGTH) return coding;
    if (chosen.size >= MAX_REMEMBERED) chosen.clear();
    chosen.set(header, coding);
  }
  return coding;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * Brotli at quality 6: within a few percent of quality 11's size on a scan result at a thirtieth of the time,
 * which a cache entry's first answer pays.
 */
function encode(bytes: Buffer, coding: 'br' | 'gzip'): Promise<Buffer> {
  return coding === 'gzip'
    ? gzipAsync(bytes)
    : brotliAsync(bytes, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 6,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
}

type Coded = Partial<Record<'br' | 'gzip', Buffer | Promise<Buffer>>>;
const codedOf = new WeakMap<Buffer, Coded>();

/**
 * The body's bytes in `coding`, made once per body buffer (a cached answer is the same buffer every time) and
 * shared by concurrent first requests; a buffer once made is returned without waiting.
 */
export function codedBytes(bytes: Buffer, coding: ContentCoding): Buffer | Promise<Buffer> {
  if (coding === 'identity') return bytes;
  const coded = codedOf.get(bytes) ?? {};
  codedOf.set(bytes, coded);
  const known = coded[coding];
  if (known) return known;
  const made = encode(bytes, coding).then((out) => (coded[coding] = out));
  coded[coding] = made;
  return made;
}
