// The productions of RFC 7208 that an SPF term's argument must match: domain-spec and its macros (sections 7.1,
// 8.1), ip4-network and ip6-network (section 5.6), and the cidr lengths (section 5.6). Pure. Each check returns
// null when the text matches, else a reason that names the production it breaks.
import { isIPv6 } from 'node:net';

/** A reason a piece of text breaks a production: `production` is the ABNF rule name. */
export interface GrammarBreak {
  production: string;
  detail: string;
}

const broken = (production: string, detail: string): GrammarBreak => ({ production, detail });

/** Macro letters allowed in a domain-spec; c, r and t only in explanation text (section 7.2). */
const DOMAIN_MACRO_LETTERS = /^[slodiphv]$/i;
const EXP_ONLY_MACRO_LETTERS = /^[crt]$/i;
/** macro-expand's "%{" macro-letter transformers *delimiter "}", transformers = *DIGIT [ "r" ] (section 7.1). */
const MACRO_BODY = /^([A-Za-z])(\d*)([rR]?)([.\-+,/_=]*)$/;
/** toplabel (section 7.1): an alphanumeric label with a letter, or a hyphenated one not ending in "-". */
const TOPLABEL = /^(?:[0-9]*[A-Za-z][A-Za-z0-9]*|[A-Za-z0-9]+-[A-Za-z0-9-]*[A-Za-z0-9])$/;
const MACRO_LITERAL = /^[\x21-\x24\x26-\x7e]$/;
/** What "%%", "%_" and "%-" expand to (section 7.3). */
const ESCAPES: Readonly<Record<string, string>> = { '%': '%', _: ' ', '-': '%20' };

interface MacroString {
  /** The fixed text after the last macro-letter expansion (the text domain-end is checked against). */
  tail: string;
  /** The string ends with a "%{...}" expansion, whose value only a receiver knows (a valid domain-end). */
  endsWithMacro: boolean;
}

/** macro-string = *( macro-expand / macro-literal ), section 7.1. */
function macroString(text: string, production: string, letters: RegExp): MacroString | GrammarBreak {
  let tail = '';
  let endsWithMacro = false;
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (c !== '%') {
      if (!MACRO_LITERAL.test(c)) return broken('macro-literal', `"${c}" is not allowed in a ${production}`);
      tail += c;
      endsWithMacro = false;
      i += 1;
      continue;
    }
    const next = text[i + 1];
    const escaped = next === undefined ? undefined : ESCAPES[next];
    if (escaped !== undefined) {
      // The escapes expand to fixed text, so domain-end is checked against it: "a:%%" can only become "%".
      tail += escaped;
      endsWithMacro = false;
      i += 2;
      continue;
    }
    const close = next === '{' ? text.indexOf('}', i) : -1;
    if (close < 0) return broken('macro-expand', `"%" must start %{...}, %%, %_ or %-`);
    const body = text.slice(i + 2, close);
    const m = MACRO_BODY.exec(body);
    if (!m) return broken('macro-expand', `"%{${body}}" is not a macro letter with transformers and delimiters`);
    if (!letters.test(m[1]!)) {
      const why = EXP_ONLY_MACRO_LETTERS.test(m[1]!) ? 'is allowed only in explanation text' : 'is not a macro-letter';
      return broken('macro-letter', `"${m[1]}" in "%{${body}}" ${why}`);
    }
    if (m[2] !== '' && Number(m[2]) === 0) return broken('transformers', `"%{${body}}" asks for zero labels`);
    tail = '';
    endsWithMacro = true;
    i = close + 1;
  }
  return { tail, endsWithMacro };
}

const isBreak = (x: object): x is GrammarBreak => 'production' in x;

/** domain-spec = macro-string domain-end; domain-end = ( "." toplabel [ "." ] ) / macro-expand (section 7.1). */
export function domainSpecBreak(text: string): GrammarBreak | null {
  if (text === '') return broken('domain-spec', 'the name is empty');
  const parsed = macroString(text, 'domain-spec', DOMAIN_MACRO_LETTERS);
  if (isBreak(parsed)) return parsed;
  if (parsed.tail === '' && parsed.endsWithMacro) return null;
  const labels = parsed.tail.replace(/\.$/, '').split('.');
  if (labels.length < 2) return broken('domain-end', `"${text}" must end in "." and a top label, or in a macro`);
  const top = labels[labels.length - 1]!;
  return TOPLABEL.test(top) ? null : broken('toplabel', `"${top}" is not a top label (letters needed, no edge "-")`);
}

/** The macro-string of an unknown modifier (section 6): any macro letter, macros well formed. */
export function macroStringBreak(text: string): GrammarBreak | null {
  const parsed = macroString(text, 'macro-string', /^[slodiphcrtv]$/i);
  return isBreak(parsed) ? parsed : null;
}

/** qnum "." qnum "." qnum "." qnum, each 0-255 without leading zeros (section 5.6). */
export function ip4NetworkBreak(text: string): GrammarBreak | null {
  const ok = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(text);
  return ok ? null : broken('ip4-network', `"${text}" is not four numbers from 0 to 255`);
}

/** The text forms of RFC 4291 section 2.2 (no zone index, which is not part of them). */
export function ip6NetworkBreak(text: string): GrammarBreak | null {
  return isIPv6(text) && !text.includes('%') ? null : broken('ip6-network', `"${text}" is not an IPv6 address`);
}

/** ip4-cidr-length and ip6-cidr-length: no leading zero, at most 32 or 128 (section 5.6). */
export function cidrBreak(digits: string, family: 4 | 6): GrammarBreak | null {
  const max = family === 4 ? 32 : 128;
  const ok = /^(?:0|[1-9]\d{0,2})$/.test(digits) && Number(digits) <= max;
  return ok ? null : broken(`ip${family}-cidr-length`, `"/${digits}" is not a prefix length from 0 to ${max}`);
}
