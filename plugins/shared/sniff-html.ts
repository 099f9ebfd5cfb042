// The one test every probe uses for "is this body an HTML page?". Catch-all routes, error pages and single-page
// app shells answer paths that hold no document with a page, and a page is never a robots.txt, an llms.txt or
// a JSON card. The test follows the WHATWG MIME Sniffing standard (section 7.1, "identifying a resource with an
// unknown MIME type"): leading whitespace skipped, then the start of the body compared with HTML patterns. It
// keeps only the patterns that open a whole page (doctype, html, head, body; after an XML declaration or
// comments), because Markdown may open with an inline element (`<p align="center">`) and is still Markdown.

/** How much of the body is looked at: a page declares itself in its first bytes. */
const SNIFF_CHARS = 2048;
const LEADING = /^(?:\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/;
const PAGE_START = /^<(?:!doctype\s+html|html|head|body)[\s>]/i;
const HEAD_OR_BODY = /<(?:head|body)[\s>]/i;

/** The text starts as an HTML page. */
export function isHtmlPage(text: string): boolean {
  const start = text.slice(0, SNIFF_CHARS).replace(/^\uFEFF/, '');
  const rest = start.replace(LEADING, '');
  if (PAGE_START.test(rest)) return true;
  // A page that opens with another element (<meta>, <title>, <script>) has its head or body tag soon after.
  return rest.startsWith('<') && HEAD_OR_BODY.test(rest);
}

/** The bytes start as an HTML page (decoded as UTF-8: every HTML pattern is ASCII). */
export function bodyIsHtmlPage(body: Uint8Array): boolean {
  return isHtmlPage(new TextDecoder('utf-8').decode(body.subarray(0, SNIFF_CHARS)));
}
