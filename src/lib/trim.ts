// Trimming a set of characters from the ends of a string. The regex form (`/^[ \t]+|[ \t]+$/g`, `/[ \t]+$/`) is
// quadratic in V8 on a long run of those characters followed by any other: the search starts again at every
// character of the run and scans to its end before failing (40,000 spaces then a letter: about a second).
// Headers and documents come from servers that may send exactly that, so trims walk inwards from each end once;
// the lint rule regexp/no-super-linear-move keeps the regex form out of the code.
// Every trim in src/ and plugins/ goes through these and names its set, because which characters are whitespace is
// the format's call: OWS in HTTP is space and tab, HTML strips ASCII whitespace, XML its own four, and
// String.prototype.trim (which the lint rule refuses there) removes every Unicode space, which no wire format does.

/** Space and horizontal tab: OWS (RFC 9110 section 5.6.3) and WSP (RFC 5234). */
export const SPACE_OR_TAB = ' \t';
/** ASCII whitespace (WHATWG Infra): tab, line feed, form feed, carriage return and space. */
export const ASCII_WHITESPACE = '\t\n\f\r ';
/** XML's white space (XML 1.0 production S): space, tab, carriage return and line feed. */
export const XML_WHITESPACE = ' \t\r\n';
/**
 * C0 controls and space (U+0000 to U+0020): what the WHATWG URL parser strips from both ends of its input before it
 * reads a URL.
 */
export const C0_CONTROL_OR_SPACE = Array.from({ length: 0x21 }, (_, c) => String.fromCharCode(c)).join('');
/**
 * What `String.prototype.trim` removes (ECMAScript's WhiteSpace and LineTerminator): for text a person typed or
 * pasted (a domain in a form, an operator's setting), where a no-break space at the end is never meant.
 */
export const UNICODE_WHITESPACE =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/** `value` without the leading characters that are in `chars`. */
export function trimStartOf(value: string, chars: string): string {
  let start = 0;
  while (start < value.length && chars.includes(value[start]!)) start++;
  return start === 0 ? value : value.slice(start);
}

/** `value` without the trailing characters that are in `chars`. */
export function trimEndOf(value: string, chars: string): string {
  let end = value.length;
  while (end > 0 && chars.includes(value[end - 1]!)) end--;
  return end === value.length ? value : value.slice(0, end);
}

/** `value` without the leading and trailing characters that are in `chars`. */
export function trimOf(value: string, chars: string): string {
  return trimEndOf(trimStartOf(value, chars), chars);
}
