// The core rules of HTTP field values (RFC 9110 section 5.6) that header parsers share: token, quoted-string,
// OWS and the comma-separated list. Each parser builds its own grammar from these pieces.
import { SPACE_OR_TAB, trimOf } from './trim.ts';

/** tchar (RFC 9110 section 5.6.2): any VCHAR except delimiters. */
const TCHAR = "!#$%&'*+.^_`|~0-9A-Za-z-";
const TOKEN = new RegExp(`^[${TCHAR}]+$`);
const TOKEN_AT = new RegExp(`[${TCHAR}]+`, 'y');

/** A parse failure, named by the grammar production it broke so an auditor can look it up in the RFC. */
export class GrammarError extends Error {
  constructor(
    readonly production: string,
    detail: string,
  ) {
    super(`${production}: ${detail}`);
  }
}

export function isToken(value: string): boolean {
  return TOKEN.test(value);
}

/** OWS = *( SP / HTAB ) */
function isOws(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t';
}

/** A cursor over one field value; the small readers below advance it. */
export class Cursor {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.pos];
  }

  skipOws(): void {
    while (isOws(this.text[this.pos])) this.pos += 1;
  }

  /** Reads a token, or returns null (cursor unmoved) when none starts here. */
  token(): string | null {
    TOKEN_AT.lastIndex = this.pos;
    const m = TOKEN_AT.exec(this.text);
    if (m === null) return null;
    this.pos += m[0].length;
    return m[0];
  }

  /**
   * quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE (RFC 9110 section 5.6.4), unescaped. The cursor must be
   * on the opening quote.
   */
  quotedString(production = 'quoted-string'): string {
    let out = '';
    this.pos += 1;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) throw new GrammarError(production, 'no closing quote');
      this.pos += 1;
      if (ch === '"') return out;
      if (ch === '\\') {
        const next = this.text[this.pos];
        if (next === undefined || !isQuotedPairChar(next)) throw new GrammarError(production, 'bad quoted-pair');
        out += next;
        this.pos += 1;
      } else if (isQdtext(ch)) {
        out += ch;
      } else {
        throw new GrammarError(production, `character ${JSON.stringify(ch)} not allowed in a quoted-string`);
      }
    }
  }

  /** token / quoted-string, as many parameter and directive values are. */
  tokenOrQuoted(production: string): string {
    if (this.peek() === '"') return this.quotedString(production);
    const t = this.token();
    if (t === null) throw new GrammarError(production, 'expected a token or a quoted-string');
    return t;
  }
}

/** qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text */
function isQdtext(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return c === 0x09 || c === 0x20 || c === 0x21 || (c >= 0x23 && c <= 0x5b) || (c >= 0x5d && c <= 0x7e) || c >= 0x80;
}

/** quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text ) */
function isQuotedPairChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return c === 0x09 || (c >= 0x20 && c <= 0x7e) || c >= 0x80;
}

/**
 * Splits a field value on the commas that separate list members (RFC 9110 section 5.6.1), leaving commas inside
 * quoted strings (and, when `comments` is set, inside parenthesised comments) alone. Members are trimmed of OWS;
 * empty members are dropped, as the list grammar allows.
 */
export function splitList(value: string, comments = false): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  let depth = 0;
  for (let i = 0; i < value.length; i += 1) {
    const ch = value[i];
    if (quoted) {
      if (ch === '\\') i += 1;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (comments && ch === '(') depth += 1;
    else if (comments && ch === ')' && depth > 0) depth -= 1;
    else if (ch === ',' && depth === 0) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  out.push(value.slice(start));
  return out.map(trimOws).filter((m) => m !== '');
}

export function trimOws(value: string): string {
  return trimOf(value, SPACE_OR_TAB);
}
