// llms.txt per the llmstxt.org proposal: an H1 naming the site (the only mandatory part), an optional
// blockquote summary, free prose without headings, then H2 sections whose list items are
// `[name](url)` links with optional `: notes`. The outline is read line by line; fenced code is skipped.
import { SPACE_OR_TAB, trimEndOf, trimOf } from '../../src/lib/trim.ts';
import { decodeUtf8, splitLines } from './text.ts';

export type LlmsErrorCode =
  | 'missing_h1'
  | 'content_before_h1'
  | 'multiple_h1'
  | 'heading_before_sections'
  | 'list_item_without_link'
  | 'unclosed_code_fence';

export interface LlmsLink {
  /** The H2 section it is in, or null before the first H2. */
  section: string | null;
  title: string;
  url: string;
  /** The `: notes` after a list-item link, or null. */
  notes: string | null;
  absolute: boolean;
  line: number;
}

export interface LlmsSection {
  title: string;
  line: number;
  /** List items in the section, and how many of them are `[name](url)` links. */
  items: number;
  linkItems: number;
}

export interface ParsedLlmsTxt {
  /** Unicode code points of the decoded text. */
  characters: number;
  title: string | null;
  h1Count: number;
  /** The first non-blank line is an H1. */
  startsWithH1: boolean;
  summary: string | null;
  sections: LlmsSection[];
  /** Every markdown link outside code, in document order. */
  links: LlmsLink[];
  errors: { line: number; code: LlmsErrorCode }[];
  /** The lines of the H1 headings, in order. */
  h1Lines: number[];
  /** The text's lines as sent, without their line breaks: what an excerpt quotes (never an observation itself). */
  text: string[];
}

const FENCE = /^ {0,3}(```|~~~)/;
const BLOCKQUOTE = /^ {0,3}>[ ]?(.*)$/;
const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s/;
// `[text](destination "title")`. The text and a bare destination stop at "[", a bracketed destination at "<", so
// the search for every link in a line reads it about once. Open to "[", each "[" was read on to the end of the
// line: a line of 80,000 of them took 5 s, and a body of 2 MiB would take hours.
const LINK_SOURCE = String.raw`\[([^[\]]*)\]\(\s*(<[^<>]*>|[^)\s[]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`;
const LINK = new RegExp(`(!?)${LINK_SOURCE}`, 'g');
const LINK_ITEM = new RegExp(`^${LINK_SOURCE}\\s*(?::(.*))?$`);
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * An ATX heading (CommonMark section 4.2): up to three spaces, one to six "#", then the end of the line or a
 * space or tab and the text, less a closing run of "#" that follows a space or tab. Read by hand: as a regex
 * with optional white space on both sides of a lazy text, a long line of spaces takes V8 minutes.
 */
function atxHeading(line: string): { level: number; text: string } | null {
  let indent = 0;
  while (indent < 3 && line[indent] === ' ') indent++;
  let level = 0;
  while (line[indent + level] === '#') level++;
  if (level < 1 || level > 6) return null;
  const rest = line.slice(indent + level);
  if (rest !== '' && !SPACE_OR_TAB.includes(rest[0]!)) return null;
  const text = trimOf(rest, SPACE_OR_TAB);
  const unclosed = trimEndOf(text, '#');
  const closed = unclosed === '' || SPACE_OR_TAB.includes(unclosed.at(-1)!);
  return { level, text: trimOf(closed ? unclosed : text, SPACE_OR_TAB) };
}

function unwrap(url: string): string {
  return url.startsWith('<') && url.endsWith('>') ? url.slice(1, -1) : url;
}

/** Where the line-by-line reading stands between two lines. */
interface Reading {
  out: ParsedLlmsTxt;
  /** The marker of the open code fence, and the line it opened on. */
  fence: string | null;
  fenceLine: number;
  seenContent: boolean;
  section: LlmsSection | null;
  /** Blockquote lines read so far that may become the summary. */
  quote: string[] | null;
}

/** A blockquote ends: the first one after the title is the summary. */
function endQuote(r: Reading): void {
  if (r.quote && r.out.summary === null) r.out.summary = trimOf(r.quote.join(' '), SPACE_OR_TAB) || null;
  r.quote = null;
}

function readHeading(r: Reading, level: number, title: string, n: number): void {
  const { out } = r;
  if (level === 1) {
    out.h1Count++;
    out.h1Lines.push(n);
    if (out.h1Count === 1) {
      out.title = title;
      out.startsWithH1 = !r.seenContent;
      if (r.seenContent) out.errors.push({ line: n, code: 'content_before_h1' });
    } else {
      out.errors.push({ line: n, code: 'multiple_h1' });
    }
  } else if (level === 2) {
    r.section = { title, line: n, items: 0, linkItems: 0 };
    out.sections.push(r.section);
  } else if (!r.section) {
    out.errors.push({ line: n, code: 'heading_before_sections' });
  }
}

/** A line of text outside code: part of the summary, a list item of a section, and the links it holds. */
function readText(r: Reading, line: string, n: number): void {
  const { out, section } = r;
  const bq = BLOCKQUOTE.exec(line);
  if (bq && out.h1Count > 0 && !section && out.summary === null) (r.quote ??= []).push(trimOf(bq[1]!, SPACE_OR_TAB));
  else endQuote(r);
  const marker = LIST_MARKER.exec(line);
  let notesFor: { url: string; notes: string | null } | null = null;
  if (marker && section) {
    section.items++;
    const li = LINK_ITEM.exec(trimOf(line.slice(marker[0].length), SPACE_OR_TAB));
    if (li) {
      section.linkItems++;
      notesFor = { url: unwrap(li[2]!), notes: trimOf(li[3] ?? '', SPACE_OR_TAB) || null };
    } else {
      out.errors.push({ line: n, code: 'list_item_without_link' });
    }
  }
  for (const m of line.matchAll(LINK)) {
    if (m[1] === '!') continue; // an image, not a link
    const url = unwrap(m[3]!);
    const notes = notesFor && notesFor.url === url ? notesFor.notes : null;
    notesFor = null;
    out.links.push({
      section: section?.title ?? null,
      title: trimOf(m[2]!, SPACE_OR_TAB),
      url,
      notes,
      absolute: ABSOLUTE.test(url),
      line: n,
    });
  }
}

function readLine(r: Reading, line: string, n: number): void {
  const fenceMatch = FENCE.exec(line);
  if (r.fence) {
    if (fenceMatch && fenceMatch[1] === r.fence) r.fence = null;
    return;
  }
  if (fenceMatch) {
    r.fence = fenceMatch[1]!;
    r.fenceLine = n;
    r.seenContent = true;
    return;
  }
  if (trimOf(line, SPACE_OR_TAB) === '') {
    endQuote(r);
    return;
  }
  const heading = atxHeading(line);
  if (heading) {
    endQuote(r);
    readHeading(r, heading.level, heading.text, n);
  } else {
    readText(r, line, n);
  }
  r.seenContent = true;
}

export function parseLlmsTxt(bytes: Uint8Array, cut = false): ParsedLlmsTxt {
  const { text } = decodeUtf8(bytes, cut);
  const lines = splitLines(text);
  const out: ParsedLlmsTxt = {
    characters: [...text].length,
    title: null,
    h1Count: 0,
    startsWithH1: false,
    summary: null,
    sections: [],
    links: [],
    errors: [],
    h1Lines: [],
    text: lines,
  };
  const r: Reading = { out, fence: null, fenceLine: 0, seenContent: false, section: null, quote: null };
  lines.forEach((line, i) => readLine(r, line, i + 1));
  endQuote(r);
  if (r.fence) out.errors.push({ line: r.fenceLine, code: 'unclosed_code_fence' });
  if (out.h1Count === 0) out.errors.push({ line: 1, code: 'missing_h1' });
  out.errors.sort((a, b) => a.line - b.line || a.code.localeCompare(b.code));
  return out;
}

/** The first markdown heading of a text (for llms-full.txt), with its level. */
export function firstHeading(bytes: Uint8Array, cut = false): { text: string; level: number } | null {
  const { text } = decodeUtf8(bytes, cut);
  let fence: string | null = null;
  for (const line of splitLines(text)) {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1] === fence) fence = null;
      continue;
    }
    if (f) {
      fence = f[1]!;
      continue;
    }
    const heading = atxHeading(line);
    if (heading) return heading;
  }
  return null;
}
