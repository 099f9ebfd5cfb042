// Trimming a set of characters from the ends of a string. The regex form (`/^[ \t]+|[ \t]+$/g`, `/[ \t]+$/`) is
// quadratic in V8 on a long run of those characters followed by any other: the search starts again at every
// character of the run and scans to its end before failing (40,000 spaces then a letter: about a second).
// Headers and documents come from servers that may send exactly that, so trims walk inwards from each end once;
// the lint rule regexp/no-super-linear-move keeps the regex form out of the code.

/** Space and horizontal tab: OWS (RFC 9110 section 5.6.3) and WSP (RFC 5234). */
export const SPACE_OR_TAB = ' \t';
/** ASCII whitespace (WHATWG Infra): tab, line feed, form feed, carriage return and space. */
export const ASCII_WHITESPACE = '\t\n\f\r ';

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
