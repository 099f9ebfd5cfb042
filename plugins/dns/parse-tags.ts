// The "tag=value; tag=value" lists that DMARC, MTA-STS, TLS-RPT and BIMI publish in TXT records
// (the DKIM tag-list syntax, RFC 6376 section 3.2). Pure.

export interface TagList {
  /** Tags in the order written; names lower-cased, values trimmed. A repeated tag keeps its first value. */
  tags: Array<[string, string]>;
  errors: string[];
}

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export function parseTagList(text: string): TagList {
  const tags: Array<[string, string]> = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const parts = text.split(';');
  parts.forEach((raw, i) => {
    const part = raw.trim();
    if (part === '') {
      // Only the segment after a trailing ";" may be empty.
      if (i !== parts.length - 1) errors.push('empty tag between two ";"');
      return;
    }
    const eq = part.indexOf('=');
    if (eq < 0) {
      errors.push(`"${part}" is not a tag=value pair`);
      return;
    }
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!TAG_NAME.test(name)) {
      errors.push(`"${name}" is not a valid tag name`);
      return;
    }
    const key = name.toLowerCase();
    if (seen.has(key)) {
      errors.push(`tag "${key}" appears more than once`);
      return;
    }
    seen.add(key);
    tags.push([key, value]);
  });
  return { tags, errors };
}

/** The value of a tag, or null. */
export function tagValue(list: TagList, name: string): string | null {
  return list.tags.find(([k]) => k === name)?.[1] ?? null;
}

/** A comma-separated URI list (rua, ruf), items trimmed, empty items dropped. */
export function uriList(value: string | null): string[] {
  return value === null
    ? []
    : value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
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
