// Byte-level helpers shared by the parsers: UTF-8 decoding with a validity fact, BOM handling and line splitting.

export interface DecodedText {
  text: string;
  /** The bytes were valid UTF-8 (a cut at the end of a truncated body is not counted as invalid). */
  utf8Valid: boolean;
  bom: boolean;
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Length of an incomplete UTF-8 sequence at the very end of the bytes (a cut, not an encoding error). */
function trailingPartial(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/** Decodes UTF-8, dropping a leading BOM; `cut` says the bytes end where a size limit stopped reading. */
export function decodeUtf8(bytes: Uint8Array, cut = false): DecodedText {
  let body = bytes;
  const bom = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  if (bom) body = body.subarray(3);
  if (cut) body = body.subarray(0, body.length - trailingPartial(body));
  try {
    return { text: strict.decode(body), utf8Valid: true, bom };
  } catch {
    return { text: lenient.decode(body), utf8Valid: false, bom };
  }
}

/** Splits on CRLF, CR or LF (RFC 9309 and RFC 9116 both allow all three). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
