// The "tag=value; tag=value" lists that DMARC, MTA-STS, TLS-RPT and BIMI publish in TXT records (after the
// DKIM tag-list, RFC 6376 section 3.2). Each format gives its own productions for a tag's name and value and
// says whether white space may surround "="; the separator is *WSP ";" *WSP in all of them. Pure.
import { SPACE_OR_TAB, trimOf } from '../../src/lib/trim.ts';

export interface TagGrammar {
  /** The format's production for a tag (named in messages), e.g. "dmarc-tag". */
  tag: string;
  name: RegExp;
  /** The characters a value may hold (tested on the whole value). */
  value: RegExp;
  /** `*WSP "=" *WSP` (DMARC, BIMI) rather than a bare "=" (MTA-STS, TLS-RPT). */
  spacedEquals: boolean;
}

export interface TagList {
  /** Tags in the order written: names lower-cased, values without surrounding WSP. A repeat keeps the first. */
  tags: Array<[string, string]>;
  errors: string[];
}

const trimWsp = (s: string): string => trimOf(s, SPACE_OR_TAB);

/** Splits a tag list, checking each tag against the grammar; every message names the production it breaks. */
export function parseTagList(text: string, grammar: TagGrammar): TagList {
  const tags: Array<[string, string]> = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const parts = text.split(';');
  parts.forEach((raw, i) => {
    const part = trimWsp(raw);
    if (part === '') {
      // Only the segment after a trailing separator may be empty.
      if (i !== parts.length - 1) errors.push(`an empty tag between two ";" breaks ${grammar.tag}`);
      return;
    }
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    const [n, v] = grammar.spacedEquals ? [trimWsp(name), trimWsp(value)] : [name, value];
    if (eq < 0) errors.push(`"${part}" breaks ${grammar.tag}: it has no "="`);
    else if (!grammar.name.test(n)) errors.push(`"${part}" breaks ${grammar.tag}: "${n}" is not a tag name`);
    else if (!grammar.value.test(v))
      errors.push(`"${part}" breaks ${grammar.tag}: the value is empty or holds a character not allowed`);
    else if (seen.has(n.toLowerCase()))
      errors.push(`"${part}" breaks ${grammar.tag}: tag "${n}" appears more than once`);
    else {
      seen.add(n.toLowerCase());
      tags.push([n.toLowerCase(), v]);
    }
  });
  return { tags, errors };
}

/** The value of a tag, or null. */
export function tagValue(list: TagList, name: string): string | null {
  return list.tags.find(([k]) => k === name)?.[1] ?? null;
}

/** A list of URIs separated by *WSP "," *WSP (DMARC rua/ruf, TLS-RPT rua), items as written. */
export function uriList(value: string | null): string[] {
  return value === null ? [] : value.split(',').map(trimWsp);
}

/**
 * TXT records of one kind: the record strings of each RR joined without separators (RFC 7208 section 3.3,
 * RFC 7489 section 6.6.3), kept when they start with the version tag. Sorted, since resolver order is no fact.
 */
export function recordsWithVersion(txt: string[][], version: RegExp): string[] {
  return txt
    .map((strings) => strings.join(''))
    .filter((s) => version.test(s))
    .sort();
}
