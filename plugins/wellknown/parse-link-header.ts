// The HTTP Link header per RFC 8288 section 3: comma-separated `<URI-Reference>` values, each with
// `; name=value` parameters (token or quoted-string). Targets are resolved against the response URL; `rel`
// holds space-separated relation types, compared case-insensitively; only its first occurrence counts.

export interface WebLink {
  /** The target resolved against the base URL. */
  href: string;
  /** Relation types, lower-cased, in order. */
  rel: string[];
  /** The `type` hint, lower-cased, or null. */
  type: string | null;
}

export interface ParsedLinkHeader {
  links: WebLink[];
  /** Link values that did not parse (and were skipped). */
  errors: number;
}

const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

class Cursor {
  i = 0;
  constructor(readonly s: string) {}
  get done(): boolean {
    return this.i >= this.s.length;
  }
  peek(): string {
    return this.s[this.i] ?? '';
  }
  skipSpace(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
  }
  token(): string {
    const start = this.i;
    while (!this.done && TOKEN_CHAR.test(this.peek())) this.i++;
    return this.s.slice(start, this.i);
  }
  quoted(): string | null {
    this.i++; // opening quote
    let out = '';
    while (!this.done) {
      const c = this.s[this.i++]!;
      if (c === '"') return out;
      if (c === '\\' && !this.done) out += this.s[this.i++];
      else out += c;
    }
    return null;
  }
  /** Skips to just past the next comma outside a quoted string or a URI. */
  recover(): void {
    let quoted = false;
    let uri = false;
    while (!this.done) {
      const c = this.s[this.i++]!;
      if (quoted) {
        if (c === '\\') this.i++;
        else if (c === '"') quoted = false;
      } else if (uri) {
        if (c === '>') uri = false;
      } else if (c === '"') quoted = true;
      else if (c === '<') uri = true;
      else if (c === ',') return;
    }
  }
}

/** Parses one link-value at the cursor; null (cursor unchanged in meaning) when it is malformed. */
function linkValue(c: Cursor, base: string): WebLink | null {
  if (c.peek() !== '<') return null;
  const close = c.s.indexOf('>', c.i);
  if (close < 0) return null;
  const target = c.s.slice(c.i + 1, close).trim();
  c.i = close + 1;
  let href: string;
  try {
    href = new URL(target, base).href;
  } catch {
    return null;
  }
  const params = new Map<string, string>();
  for (;;) {
    c.skipSpace();
    if (c.done || c.peek() === ',') break;
    if (c.peek() !== ';') return null;
    c.i++;
    c.skipSpace();
    const name = c.token().toLowerCase();
    if (!name) return null;
    c.skipSpace();
    let value = '';
    if (c.peek() === '=') {
      c.i++;
      c.skipSpace();
      if (c.peek() === '"') {
        const q = c.quoted();
        if (q === null) return null;
        value = q;
      } else {
        value = c.token();
      }
    }
    if (!params.has(name)) params.set(name, value);
  }
  const rel = (params.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const type = params.get('type')?.trim().toLowerCase() || null;
  return { href, rel, type };
}

export function parseLinkHeader(value: string, base: string): ParsedLinkHeader {
  const out: ParsedLinkHeader = { links: [], errors: 0 };
  const c = new Cursor(value);
  while (!c.done) {
    c.skipSpace();
    if (c.peek() === ',') {
      c.i++;
      continue;
    }
    if (c.done) break;
    const start = c.i;
    const link = linkValue(c, base);
    if (link) {
      out.links.push(link);
      c.skipSpace();
      if (c.peek() === ',') c.i++;
    } else {
      out.errors++;
      c.i = start;
      c.recover();
    }
  }
  return out;
}
