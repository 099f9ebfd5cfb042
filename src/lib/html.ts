// Text into HTML: every character that could open markup or end an attribute becomes a numeric reference, and every
// bidirectional control is shown as its code point. Scanned text is the attacker's: a U+202E (right-to-left override)
// or U+2066 (left-to-right isolate) in a header or a file would reorder what the page shows around it, as in
// "txt.exe" shown as "exe.txt" (issue 31 item 10). Browsers' address bars percent-encode these for the same reason.

/** U+061C, U+200E, U+200F, U+202A..U+202E and U+2066..U+2069 (Unicode's Bidi_Control property). */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

const codePoint = (c: string) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(BIDI_CONTROLS, codePoint);
}
