// The web app manifest processor three ways: the examples of the W3C Web Application Manifest and Image Resource
// specifications, generated manifests whose every member is valid (all kept, with the values the steps give), and
// one-member mutations of those (each ignored, naming the member and the step).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISPLAY_MODES, processManifest, withinScope } from '../../../plugins/http/parse-manifest.ts';

const ORIGIN = 'https://example.com';
const MANIFEST_URL = `${ORIGIN}/resources/manifest.webmanifest`;
const DOCUMENT_URL = `${ORIGIN}/index.html`;

const bytes = (value: unknown): Buffer => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const processed = (json: unknown, manifestUrl = MANIFEST_URL, documentUrl = DOCUMENT_URL) =>
  processManifest(bytes(json), manifestUrl, documentUrl);

describe('processManifest: the specifications’ examples', () => {
  it('resolves start_url against the manifest URL (start_url member)', () => {
    const m = processed({ start_url: '../start_point.html' });
    expect(m.start_url).toBe('https://example.com/start_point.html');
    expect(m.ignored).toEqual([]);
  });

  // The table of the `id` member section: json["id"], manifest["start_url"], manifest["id"].
  it.each([
    [undefined, 'https://example.com/my-app/start', 'https://example.com/my-app/start'],
    [undefined, 'https://example.com/my-app/#here', 'https://example.com/my-app/#here'],
    ['', 'https://example.com/my-app/start', 'https://example.com/my-app/start'],
    ['/', 'https://example.com/my-app/start', 'https://example.com/'],
    ['foo', 'https://example.com/my-app/start', 'https://example.com/foo'],
    ['foo?x=y', 'https://example.com/my-app/start', 'https://example.com/foo?x=y'],
    ['foo#heading', 'https://example.com/my-app/start', 'https://example.com/foo'],
    ['./foo', 'https://example.com/my-app/start', 'https://example.com/foo'],
    ['https://example.com/foo', 'https://example.com/my-app/start', 'https://example.com/foo'],
    ['https://anothersite.com/foo', 'https://example.com/my-app/start', 'https://example.com/my-app/start'],
    ['😀', 'https://example.com/my-app/start', 'https://example.com/%F0%9F%98%80'],
  ])('id %j with start_url %s gives %s', (id, startUrl, expected) => {
    const m = processed({ start_url: startUrl, ...(id === undefined ? {} : { id }) });
    expect(m.start_url).toBe(startUrl);
    // The table's second row drops start_url's fragment from the id; the steps copy start_url as it is when id is
    // absent, and the parser follows the steps (PARSERS.md).
    expect(m.id).toBe(id === undefined ? startUrl : expected);
  });

  it('keeps the multi-size ICO icon and the WebP icon of the icons example', () => {
    const m = processed({
      icons: [
        { src: 'icon/lowres.webp', sizes: '48x48', type: 'image/webp' },
        { src: 'icon/lowres', sizes: '48x48' },
        { src: 'icon/hd_hi.ico', sizes: '72x72 96x96 128x128 256x256' },
        { src: 'icon/hd_hi.svg' },
      ],
    });
    expect(m.icons).toEqual([
      { src: `${ORIGIN}/resources/icon/lowres.webp`, sizes: ['48x48'], type: 'image/webp', purpose: ['any'] },
      { src: `${ORIGIN}/resources/icon/lowres`, sizes: ['48x48'], type: null, purpose: ['any'] },
      {
        src: `${ORIGIN}/resources/icon/hd_hi.ico`,
        sizes: ['72x72', '96x96', '128x128', '256x256'],
        type: null,
        purpose: ['any'],
      },
      { src: `${ORIGIN}/resources/icon/hd_hi.svg`, sizes: null, type: null, purpose: ['any'] },
    ]);
    expect(m.icons_declared).toBe(4);
  });

  it('ignores the cross-origin start_url of the content security policy example', () => {
    const m = processed(
      {
        name: 'custom manifest',
        start_url: 'https://boo',
        icons: [{ src: '//icons.example.com/lowres' }, { src: '//other.com/hi-res' }],
      },
      'https://example.com/manifest.webmanifest',
    );
    expect(m.name).toBe('custom manifest');
    expect(m.start_url).toBe(DOCUMENT_URL);
    expect(m.ignored).toEqual([{ member: 'start_url', reason: 'cross_origin', value: 'https://boo' }]);
    expect(m.icons.map((i) => i.src)).toEqual(['https://icons.example.com/lowres', 'https://other.com/hi-res']);
  });

  it('keeps the known purposes of "monochrome fizzbuzz" and drops an icon whose only purpose is "fizzbuzz"', () => {
    const m = processed({
      icons: [
        { src: 'a.png', purpose: 'monochrome fizzbuzz' },
        { src: 'b.png', purpose: 'fizzbuzz' },
      ],
    });
    expect(m.icons.map((i) => i.purpose)).toEqual([['monochrome']]);
    expect(m.ignored).toEqual([{ member: 'icons[1].purpose', reason: 'unknown_purpose', value: 'fizzbuzz' }]);
  });

  it('defaults scope to the start URL’s directory, and display to browser', () => {
    const m = processed({ start_url: '/pages/app.html' });
    expect(m.scope).toBe('https://example.com/pages/');
    expect(m.display).toBe('browser');
  });

  it('reads a body that is not JSON, or not an object, as an empty manifest', () => {
    for (const [body, json] of [
      ['{"name": "x",}', 'not_json'],
      ['["name"]', 'not_object'],
      ['null', 'not_object'],
    ] as const) {
      const m = processed(body);
      expect(m).toMatchObject({ json, name: null, start_url: DOCUMENT_URL, display: 'browser', icons: [] });
    }
  });

  it('drops a UTF-8 byte order mark before parsing', () => {
    const m = processManifest(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes({ name: 'x' })]),
      MANIFEST_URL,
      DOCUMENT_URL,
    );
    expect(m).toMatchObject({ json: 'object', name: 'x' });
  });

  it('within scope is a same-origin path prefix', () => {
    expect(withinScope(new URL('https://a.example/app/x'), new URL('https://a.example/app/'))).toBe(true);
    expect(withinScope(new URL('https://a.example/application'), new URL('https://a.example/app'))).toBe(true);
    expect(withinScope(new URL('https://a.example/other'), new URL('https://a.example/app/'))).toBe(false);
    expect(withinScope(new URL('http://a.example/app/'), new URL('https://a.example/app/'))).toBe(false);
  });
});

const ws = fc.constantFrom('', ' ', '\t', '\n ', '  ');
const word = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split('')),
  minLength: 1,
  maxLength: 8,
});
const text = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const casing = (s: string) =>
  fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((up) => [...s].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
const dimension = fc.integer({ min: 1, max: 4096 });
const size = fc.oneof(
  casing('any'),
  fc.tuple(dimension, fc.constantFrom('x', 'X'), dimension).map(([w, x, h]) => `${w}${x}${h}`),
);
const purpose = fc.subarray(['monochrome', 'maskable', 'any'], { minLength: 1 });
const iconType = fc.constantFrom('image/png', 'image/svg+xml', 'image/webp', 'IMAGE/PNG', 'image/png; charset=x');
const icon = fc.record({
  src: fc.array(word, { minLength: 1, maxLength: 3 }).map((p) => `/${p.join('/')}.png`),
  sizes: fc.option(fc.array(size, { minLength: 1, maxLength: 3 }), { nil: undefined }),
  type: fc.option(iconType, { nil: undefined }),
  purpose: fc.option(purpose, { nil: undefined }),
});

/** A manifest whose every member is valid, with the values processing must give. */
const validManifest = fc
  .record({
    name: fc.tuple(ws, text, ws),
    shortName: fc.option(fc.tuple(ws, text, ws), { nil: undefined }),
    dir: fc.array(word, { maxLength: 2 }),
    page: fc.option(word, { nil: undefined }),
    relative: fc.boolean(),
    id: fc.option(word, { nil: undefined }),
    display: fc.tuple(ws, fc.constantFrom(...DISPLAY_MODES).chain(casing), ws),
    icons: fc.array(icon, { maxLength: 4 }),
  })
  .map((r) => {
    const scopePath = `/${r.dir.map((d) => `${d}/`).join('')}`;
    const startPath = `${scopePath}${r.page ?? ''}`;
    const json = {
      name: r.name.join(''),
      ...(r.shortName ? { short_name: r.shortName.join('') } : {}),
      start_url: r.relative ? startPath : `${ORIGIN}${startPath}`,
      scope: scopePath,
      ...(r.id ? { id: `/${r.id}` } : {}),
      display: r.display.join(''),
      icons: r.icons.map((i) => ({
        src: i.src,
        ...(i.sizes ? { sizes: i.sizes.join(' ') } : {}),
        ...(i.type ? { type: i.type } : {}),
        ...(i.purpose ? { purpose: i.purpose.join(' ') } : {}),
      })),
    };
    const expected = {
      name: r.name[1],
      short_name: r.shortName ? r.shortName[1] : null,
      start_url: `${ORIGIN}${startPath}`,
      scope: `${ORIGIN}${scopePath}`,
      id: r.id ? `${ORIGIN}/${r.id}` : `${ORIGIN}${startPath}`,
      display: r.display[1].toLowerCase(),
      icons: r.icons.map((i) => ({
        src: `${ORIGIN}${i.src}`,
        sizes: i.sizes ? i.sizes.map((s) => s.toLowerCase()) : null,
        type: i.type ? i.type.split(';')[0]!.toLowerCase() : null,
        purpose: i.purpose ?? ['any'],
      })),
    };
    // The page the manifest is linked from is its start page, so a start_url that is ignored falls back to it and
    // no other member changes.
    return { json, expected, documentUrl: `${ORIGIN}${startPath}` };
  });

describe('processManifest: generated valid manifests', () => {
  it('keeps every member, with the values the processing steps give', () => {
    fc.assert(
      fc.property(validManifest, ({ json, expected, documentUrl }) => {
        const m = processed(json, `${ORIGIN}/manifest.webmanifest`, documentUrl);
        expect(m.ignored).toEqual([]);
        expect(m).toMatchObject({ json: 'object', ...expected, icons_declared: json.icons.length });
      }),
    );
  });
});

type Json = Record<string, unknown>;
type Mutation = { member: string; reason: string; apply: (json: Json) => Json };

const withIcon = (json: Json, change: Json): Json => ({
  ...json,
  icons: [{ src: '/icon.png', sizes: '192x192', type: 'image/png' }].map((i) => ({ ...i, ...change })),
});

/** One production broken at a time: the member, the step that must refuse it, and the change. */
const MUTATIONS: Mutation[] = [
  { member: 'name', reason: 'not_string', apply: (j) => ({ ...j, name: 42 }) },
  { member: 'short_name', reason: 'not_string', apply: (j) => ({ ...j, short_name: ['x'] }) },
  { member: 'start_url', reason: 'not_string', apply: (j) => ({ ...j, start_url: { url: '/' } }) },
  { member: 'start_url', reason: 'empty', apply: (j) => ({ ...j, start_url: '' }) },
  { member: 'start_url', reason: 'unparsable', apply: (j) => ({ ...j, start_url: 'https://exa mple.com:99999/' }) },
  { member: 'start_url', reason: 'cross_origin', apply: (j) => ({ ...j, start_url: 'https://app.example.net/' }) },
  { member: 'start_url', reason: 'cross_origin', apply: (j) => ({ ...j, start_url: 'http://example.com/' }) },
  { member: 'id', reason: 'not_string', apply: (j) => ({ ...j, id: 7 }) },
  { member: 'id', reason: 'cross_origin', apply: (j) => ({ ...j, id: 'https://other.example/app' }) },
  { member: 'scope', reason: 'start_url_outside', apply: (j) => ({ ...j, scope: '/elsewhere/' }) },
  { member: 'scope', reason: 'unparsable', apply: (j) => ({ ...j, scope: 'http://[::1' }) },
  { member: 'display', reason: 'unknown_mode', apply: (j) => ({ ...j, display: 'app' }) },
  { member: 'display', reason: 'unknown_mode', apply: (j) => ({ ...j, display: 'window-controls-overlay' }) },
  { member: 'display', reason: 'not_string', apply: (j) => ({ ...j, display: true }) },
  { member: 'icons', reason: 'not_list', apply: (j) => ({ ...j, icons: { src: '/icon.png' } }) },
  { member: 'icons[0]', reason: 'not_object', apply: (j) => ({ ...j, icons: ['/icon.png'] }) },
  { member: 'icons[0].src', reason: 'not_string', apply: (j) => withIcon(j, { src: undefined }) },
  { member: 'icons[0].src', reason: 'unparsable', apply: (j) => withIcon(j, { src: 'https://[x/' }) },
  { member: 'icons[0].sizes', reason: 'invalid_sizes', apply: (j) => withIcon(j, { sizes: '192' }) },
  { member: 'icons[0].sizes', reason: 'invalid_sizes', apply: (j) => withIcon(j, { sizes: '0192x0192' }) },
  { member: 'icons[0].sizes', reason: 'invalid_sizes', apply: (j) => withIcon(j, { sizes: '192x192 big' }) },
  { member: 'icons[0].type', reason: 'invalid_mime_type', apply: (j) => withIcon(j, { type: 'png' }) },
  { member: 'icons[0].purpose', reason: 'unknown_purpose', apply: (j) => withIcon(j, { purpose: 'splash' }) },
  { member: 'icons[0].purpose', reason: 'unknown_purpose', apply: (j) => withIcon(j, { purpose: 'ANY' }) },
];

describe('processManifest: one-member mutations of valid manifests', () => {
  it.each(MUTATIONS.map((m) => [`${m.member} ${m.reason}`, m] as const))(
    '%s is ignored, and only it',
    (_n, mutation) => {
      fc.assert(
        fc.property(validManifest, ({ json, documentUrl }) => {
          const m = processed(mutation.apply(json), `${ORIGIN}/manifest.webmanifest`, documentUrl);
          expect(m.ignored.map((i) => [i.member, i.reason])).toEqual([[mutation.member, mutation.reason]]);
        }),
        { numRuns: 30 },
      );
    },
  );

  it('an ignored member falls back to its default, and a dropped icon is not kept', () => {
    const m = processed({
      start_url: 'https://app.example.net/',
      display: 'app',
      icons: [{ src: 'a.png', sizes: '1' }],
    });
    expect(m).toMatchObject({ start_url: DOCUMENT_URL, display: 'browser', icons: [], icons_declared: 1 });
  });

  it('cuts long text to 200 characters', () => {
    const m = processed({ name: 'n'.repeat(1000), display: 'x'.repeat(1000) });
    expect(m.name).toHaveLength(200);
    expect(m.ignored[0]!.value).toHaveLength(200);
  });
});

describe('processManifest: the lines its facts point at', () => {
  it('quotes the members the steps ignored, then the members the facts hold, as written', () => {
    const text = [
      '{',
      '  "name": 7,',
      '  "short_name": "Shop",',
      '  "display": "kiosk",',
      '  "icons": [',
      '    { "src": "a.png", "sizes": "big" }',
      '  ]',
      '}',
    ].join('\n');
    expect(processed(text).excerpt).toEqual([
      { line: 2, text: '  "name": 7,', facts: ['ignored', 'name'] },
      { line: 3, text: '  "short_name": "Shop",', facts: ['short_name'] },
      { line: 4, text: '  "display": "kiosk",', facts: ['display', 'ignored'] },
      { line: 5, text: '  "icons": [', facts: ['icons', 'icons_declared'] },
      { line: 6, text: '    { "src": "a.png", "sizes": "big" }', facts: ['ignored'] },
    ]);
  });

  it('quotes where the text stops being JSON, or the value that is not an object', () => {
    expect(processed('{\n  "name": "x",\n}').excerpt).toEqual([{ line: 3, text: '}', facts: ['json'] }]);
    expect(processed('["name"]').excerpt).toEqual([{ line: 1, text: '["name"]', facts: ['json'] }]);
  });
});
