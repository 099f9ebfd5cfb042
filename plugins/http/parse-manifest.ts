// A web application manifest read as the W3C Web Application Manifest's "processing a manifest" steps read it
// (with the Image Resource specification's steps for each icon): the members a browser keeps, with their
// processed values, and every member the steps ignore, with the step that ignored it. Pure: bytes and two URLs in.
//
//   json        = parse JSON bytes (UTF-8, a BOM dropped); not JSON or not an object: an empty manifest
//   name        = a string, leading and trailing ASCII whitespace stripped (short_name alike)
//   start_url   = a non-empty string parsed against the manifest URL, same origin as the document URL;
//                 otherwise the document URL
//   id          = a non-empty string parsed against start_url's origin, same origin as start_url, fragment
//                 dropped; otherwise start_url
//   scope       = a non-empty string parsed against the manifest URL, query and fragment dropped, and start_url
//                 within it; otherwise "." parsed against start_url
//   display     = a string, stripped and ASCII-lower-cased, in « fullscreen, standalone, minimal-ui, browser »;
//                 otherwise "browser"
//   icons       = a list; each item an object whose src is a string that parses against the manifest URL, whose
//                 sizes (when a non-empty string) is a valid sizes value, whose type (when a non-empty string) is
//                 a MIME type, and whose purpose keeps at least one of « monochrome, maskable, any »
import { parseContentType } from '../../src/net/content-type.ts';
import type { ManifestFacet } from './types.ts';
import { ASCII_WHITESPACE, trimOf } from '../../src/lib/trim.ts';
import {
  errorExcerpt,
  jsonExcerpt,
  JsonLinesError,
  parseJsonLines,
  type JsonLines,
  type MemberPointer,
} from '../shared/json-lines.ts';

type Processed = Omit<ManifestFacet, 'link' | 'on_site' | 'published' | 'document'>;
type Ignored = Processed['ignored'][number];
type Icon = Processed['icons'][number];

export const DISPLAY_MODES = ['fullscreen', 'standalone', 'minimal-ui', 'browser'] as const;
export const ICON_PURPOSES = ['monochrome', 'maskable', 'any'] as const;
type DisplayMode = (typeof DISPLAY_MODES)[number];
type Purpose = (typeof ICON_PURPOSES)[number];

const isDisplayMode = (s: string): s is DisplayMode => (DISPLAY_MODES as readonly string[]).includes(s);
const isPurpose = (s: string): s is Purpose => (ICON_PURPOSES as readonly string[]).includes(s);

/** Text kept from a manifest is cut to this many characters, so a hostile file cannot inflate the evidence. */
const MAX_TEXT = 200;
/** Icons described one by one; the rest are counted in icons_declared only. */
const MAX_ICONS = 50;

const strip = (s: string): string => trimOf(s, ASCII_WHITESPACE);
const cut = (s: string): string => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) : s);
/**
 * A member's value as written, for the reader of an ignored member. JSON.stringify recurses: a value nested some
 * 10,000 deep overflows the call stack, and is named instead of shown.
 */
function shown(v: unknown): string | null {
  if (v === undefined) return null;
  if (typeof v === 'string') return cut(v);
  try {
    return cut(JSON.stringify(v));
  } catch {
    return '(a value nested too deeply to show)';
  }
}

/** One size of a sizes value (HTML, the link element's sizes attribute): "any", or WxH without leading zeros. */
const SIZE = /^(any|[1-9][0-9]*[xX][1-9][0-9]*)$/i;

function parseUrl(value: string, base: string | URL): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

/** The Web Application Manifest's "within scope": same origin, and the target's path starts with the scope's. */
export function withinScope(target: URL, scope: URL): boolean {
  return target.origin === scope.origin && target.pathname.startsWith(scope.pathname);
}

/**
 * Parse JSON bytes to an Infra value (WHATWG Infra): UTF-8 decode, which drops a BOM, then JSON; parsed once with
 * each member's line, for the excerpt.
 */
function parseJson(body: Uint8Array): JsonLines | JsonLinesError {
  try {
    return parseJsonLines(new TextDecoder('utf-8').decode(body));
  } catch (err) {
    if (err instanceof JsonLinesError) return err;
    throw err;
  }
}

/** `icons[2].src` -> `/icons/2/src`: an ignored member's JSON pointer. */
const pointerOf = (member: string) =>
  `/${member
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .join('/')}`;

/** Members whose processed value a fact holds, in the order the excerpt keeps them after the ignored ones. */
const MEMBER_FACTS = ['name', 'short_name', 'start_url', 'id', 'scope', 'display', 'icons'] as const;

/**
 * The lines the facts point at (line-excerpt.ts's bounds): where the text stops being JSON, or the opening line of
 * a value that is not an object (json), the members the steps ignored, then the members the facts were read from.
 */
function excerptOf(parsed: JsonLines | JsonLinesError, json: Record<string, unknown> | null, ignored: Ignored[]) {
  if (parsed instanceof JsonLinesError) return errorExcerpt(parsed, ['json']);
  if (json === null) return jsonExcerpt(parsed, [['json', '']]);
  const pointers: MemberPointer[] = ignored.map((i) => ['ignored', pointerOf(i.member)]);
  for (const member of MEMBER_FACTS) if (Object.hasOwn(json, member)) pointers.push([member, `/${member}`]);
  if (Object.hasOwn(json, 'icons')) pointers.push(['icons_declared', '/icons']);
  return jsonExcerpt(parsed, pointers);
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class Processor {
  readonly ignored: Ignored[] = [];

  constructor(private readonly json: Record<string, unknown>) {}

  ignore(member: string, reason: Ignored['reason'], value: unknown): void {
    this.ignored.push({ member, reason, value: shown(value) });
  }

  has(member: string): boolean {
    return Object.hasOwn(this.json, member);
  }

  /** Process a text member: a string, stripped. */
  text(member: 'name' | 'short_name'): string | null {
    if (!this.has(member)) return null;
    const v = this.json[member];
    if (typeof v !== 'string') {
      this.ignore(member, 'not_string', v);
      return null;
    }
    return cut(strip(v));
  }

  startUrl(manifestUrl: string, documentUrl: URL): URL {
    if (!this.has('start_url')) return documentUrl;
    const v = this.json.start_url;
    if (typeof v !== 'string') return (this.ignore('start_url', 'not_string', v), documentUrl);
    if (v === '') return (this.ignore('start_url', 'empty', v), documentUrl);
    const url = parseUrl(v, manifestUrl);
    if (url === null) return (this.ignore('start_url', 'unparsable', v), documentUrl);
    if (url.origin !== documentUrl.origin) return (this.ignore('start_url', 'cross_origin', v), documentUrl);
    return url;
  }

  id(startUrl: URL): URL {
    if (!this.has('id')) return startUrl;
    const v = this.json.id;
    if (typeof v !== 'string') return (this.ignore('id', 'not_string', v), startUrl);
    if (v === '') return (this.ignore('id', 'empty', v), startUrl);
    const id = parseUrl(v, startUrl.origin);
    if (id === null) return (this.ignore('id', 'unparsable', v), startUrl);
    if (id.origin !== startUrl.origin) return (this.ignore('id', 'cross_origin', v), startUrl);
    id.hash = '';
    return id;
  }

  scope(manifestUrl: string, startUrl: URL): URL {
    const fallback = new URL('.', startUrl);
    if (!this.has('scope')) return fallback;
    const v = this.json.scope;
    if (typeof v !== 'string') return (this.ignore('scope', 'not_string', v), fallback);
    if (v === '') return (this.ignore('scope', 'empty', v), fallback);
    const scope = parseUrl(v, manifestUrl);
    if (scope === null) return (this.ignore('scope', 'unparsable', v), fallback);
    scope.search = '';
    scope.hash = '';
    if (!withinScope(startUrl, scope)) return (this.ignore('scope', 'start_url_outside', v), fallback);
    return scope;
  }

  display(): DisplayMode {
    if (!this.has('display')) return 'browser';
    const v = this.json.display;
    if (typeof v !== 'string') return (this.ignore('display', 'not_string', v), 'browser');
    const mode = strip(v).toLowerCase();
    if (!isDisplayMode(mode)) return (this.ignore('display', 'unknown_mode', v), 'browser');
    return mode;
  }

  /** Process image resources: each item kept or ignored with the step that refused it. */
  icons(manifestUrl: string): { icons: Icon[]; declared: number | null } {
    if (!this.has('icons')) return { icons: [], declared: null };
    const list = this.json.icons;
    if (!Array.isArray(list)) {
      this.ignore('icons', 'not_list', list);
      return { icons: [], declared: null };
    }
    const icons: Icon[] = [];
    list.slice(0, MAX_ICONS).forEach((item: unknown, i) => {
      const icon = this.icon(item, `icons[${i}]`, manifestUrl);
      if (icon !== null) icons.push(icon);
    });
    return { icons, declared: list.length };
  }

  private icon(item: unknown, member: string, manifestUrl: string): Icon | null {
    if (!isMap(item)) return (this.ignore(member, 'not_object', item), null);
    const { src, sizes, type, purpose } = item;
    if (typeof src !== 'string') return (this.ignore(`${member}.src`, 'not_string', src), null);
    const url = parseUrl(src, manifestUrl);
    if (url === null) return (this.ignore(`${member}.src`, 'unparsable', src), null);
    let sizeList: string[] | null = null;
    if (typeof sizes === 'string' && sizes.length > 0) {
      const tokens = sizes.split(/[\t\n\f\r ]+/).filter((t) => t !== '');
      if (tokens.length === 0 || !tokens.every((t) => SIZE.test(t)))
        return (this.ignore(`${member}.sizes`, 'invalid_sizes', sizes), null);
      sizeList = tokens.map((t) => t.toLowerCase());
    }
    let essence: string | null = null;
    if (typeof type === 'string' && type.length > 0) {
      essence = parseContentType(type).mediaType;
      if (essence === null) return (this.ignore(`${member}.type`, 'invalid_mime_type', type), null);
    }
    let purposes: Purpose[] = ['any'];
    if (typeof purpose === 'string') {
      const known = purpose.split(/[\t\n\f\r ]+/).filter(isPurpose);
      if (known.length === 0) return (this.ignore(`${member}.purpose`, 'unknown_purpose', purpose), null);
      purposes = [...new Set(known)];
    }
    return { src: cut(url.href), sizes: sizeList, type: essence, purpose: purposes };
  }
}

/** What processing a manifest's bytes gives, for a manifest at `manifestUrl` linked from `documentUrl`. */
export function processManifest(body: Uint8Array, manifestUrl: string, documentUrl: string): Processed {
  const parsed = parseJson(body);
  const json = parsed instanceof JsonLinesError ? undefined : parsed.value;
  const p = new Processor(isMap(json) ? json : {});
  const document = new URL(documentUrl);
  const name = p.text('name');
  const shortName = p.text('short_name');
  const startUrl = p.startUrl(manifestUrl, document);
  const id = p.id(startUrl);
  const scope = p.scope(manifestUrl, startUrl);
  const display = p.display();
  const { icons, declared } = p.icons(manifestUrl);
  return {
    json: parsed instanceof JsonLinesError ? 'not_json' : isMap(json) ? 'object' : 'not_object',
    name,
    short_name: shortName,
    start_url: cut(startUrl.href),
    id: cut(id.href),
    scope: cut(scope.href),
    display,
    icons,
    icons_declared: declared,
    ignored: p.ignored,
    excerpt: excerptOf(parsed, isMap(json) ? json : null, p.ignored),
  };
}
