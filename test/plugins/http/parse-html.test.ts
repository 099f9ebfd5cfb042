import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractJsonLd } from '../../../plugins/http/html-jsonld.ts';
import { emptyHtml, parseHtml, parsePage } from '../../../plugins/http/parse-html.ts';
import { decodeBody } from '../../../plugins/http/body.ts';

const here = path.dirname(new URL(import.meta.url).pathname);
const sites = path.join(here, '..', '..', 'world', 'sites');

function parseFile(file: string, url: string) {
  const bytes = readFileSync(file);
  return parseHtml(bytes.toString('utf8'), url, bytes.length);
}

describe('parseHtml on fixture pages', () => {
  const rich = parseFile(path.join(here, 'fixtures', 'rich.html'), 'https://beispiel.example/');

  it('reads the head', () => {
    expect(rich).toMatchObject({
      parsed: true,
      document_mode: 'no-quirks',
      lang: 'de-CH',
      title: 'Beispiel AG',
      title_count: 2,
      meta_charset: 'iso-8859-1',
      robots: 'noindex, follow',
      canonical: ['/de/', 'https://beispiel.example/'],
      canonical_url: 'https://beispiel.example/de/',
      canonical_absolute: false,
      open_graph: { 'og:title': 'Beispiel AG', 'og:type': 'website' },
      twitter: { 'twitter:card': 'summary_large_image' },
      markdown_alternate: 'https://beispiel.example/index.md',
      llms_link: 'https://beispiel.example/docs/llms.txt',
      feeds: ['https://beispiel.example/feed.atom'],
      csp_meta: ["default-src 'self'"],
    });
  });

  it('counts scripts, third-party scripts and their integrity', () => {
    expect([rich.script_count, rich.external_scripts, rich.external_scripts_without_integrity]).toEqual([4, 2, 1]);
  });

  it('reads JSON-LD blocks, including @graph members and parse errors', () => {
    expect(rich.json_ld).toMatchObject({
      blocks: 2,
      types: ['Organization'],
      nodes: 2,
      untyped_nodes: 1,
      schema_org_context: true,
      identity: { type: 'Organization', name: 'Beispiel AG', url: 'https://beispiel.example/', logo: true, same_as: 2 },
      name_visible: true,
    });
    expect(rich.json_ld.parse_errors).toHaveLength(1);
    expect(rich.json_ld.parse_errors[0]).toMatch(/^block 2: /);
  });

  it('measures visible text without script and template, noscript counted apart', () => {
    expect(rich.noscript_text_chars).toBe('Bitte JavaScript aktivieren.'.length);
    expect(rich.text_chars).toBeGreaterThan(rich.noscript_text_chars);
    const text = 'Text mit Leerzeichen.';
    expect(rich.text_chars).toBeGreaterThan(text.length);
    expect(rich.word_count).toBeGreaterThan(5);
  });

  it('reads headings, landmarks, images, controls and mixed content', () => {
    expect(rich).toMatchObject({
      h1_count: 2,
      h1_nonempty_count: 1,
      landmarks: { main: 1, nav: 1 },
      images: 2,
      images_without_alt: 1,
      controls: 7,
      controls_unnamed: 2,
      insecure_subresources: ['http://cdn.example/site.css', 'http://forms.example/post', 'http://img.example/a.png'],
    });
  });

  it('sees the good site as a complete page', () => {
    const good = parseFile(path.join(sites, 'good', 'files', 'index.html'), 'https://good.test/');
    expect(good).toMatchObject({
      title: 'Good Test: a well-kept example site',
      lang: 'en',
      h1_count: 1,
      canonical_absolute: true,
      mount_point: null,
    });
    expect(good.text_chars).toBeGreaterThanOrEqual(1000);
    expect(good.json_ld).toMatchObject({
      blocks: 1,
      parse_errors: [],
      identity: { type: 'Organization', name: 'Good Test' },
    });
    expect(Object.keys(good.open_graph).sort()).toEqual(
      expect.arrayContaining(['og:image', 'og:title', 'og:type', 'og:url']),
    );
  });

  it('sees the SPA shell as an empty mount point', () => {
    const shell = parseFile(path.join(sites, 'http-spa-shell', 'files', 'index.html'), 'https://http-spa-shell.test/');
    expect(shell).toMatchObject({ mount_point: 'root', mount_point_empty: true, body_elements: 1, script_count: 1 });
    expect(shell.text_chars).toBe(shell.noscript_text_chars);
  });

  it('sees a page without metadata as such', () => {
    const bare = parseFile(
      path.join(sites, 'http-no-metadata', 'files', 'index.html'),
      'https://http-no-metadata.test/',
    );
    expect(bare).toMatchObject({
      document_mode: 'quirks',
      lang: null,
      title: null,
      title_count: 0,
      meta_description: null,
      canonical: [],
      open_graph: {},
      json_ld: { blocks: 0, schema_org_context: null, identity: null, name_visible: null },
      images_without_alt: 1,
      controls_unnamed: 1,
    });
  });
});

const page = (body: string) =>
  parseHtml(`<!doctype html><html lang="en"><body>${body}</body></html>`, 'https://x.example/', 0);

describe('parseHtml: form controls that are rendered and named', () => {
  it.each([
    ['the hidden attribute', '<div hidden><input type="text"></div>'],
    ['hidden="until-found"', '<div hidden="until-found"><input></div>'],
    ['aria-hidden="true" on an ancestor', '<div aria-hidden="TRUE"><p><select></select></p></div>'],
    ['inline display:none', '<form style="color: red; display : none !important"><textarea></textarea></form>'],
    ['inline visibility:hidden', '<div style="visibility:hidden"><button></button></div>'],
    ['a closed dialog', '<dialog><input></dialog>'],
    ['the content of a closed details', '<details><summary>More</summary><input></details>'],
    ['a datalist', '<datalist id="d"><select></select></datalist>'],
    ['template content', '<template><input></template>'],
  ])('leaves out a control under %s', (_name, body) => {
    expect(page(body)).toMatchObject({ controls: 0, controls_unnamed: 0 });
  });

  it('counts what markup does not hide', () => {
    const p = page(
      '<div aria-hidden="false"><input></div><dialog open><input></dialog><details open><input></details>' +
        '<div style="visibility:hidden"><p style="visibility: visible"><input></p></div><div hidden><input></div>',
    );
    expect(p).toMatchObject({ controls: 4, controls_unnamed: 4, controls_not_rendered: 1 });
  });

  it('names controls as HTML-AAM does from markup', () => {
    const named = [
      '<span id="l1">Email</span><input aria-labelledby="missing l1">',
      '<input aria-label="Search">',
      '<label>Name <input></label>',
      '<label for="c">City</label><input id="c">',
      '<input title="Phone">',
      '<input type="email" placeholder="you@example.com">',
      '<textarea placeholder="Message"></textarea>',
      '<button>Send</button>',
      '<input type="submit">',
      '<input type="button" value="Go">',
      '<input type="image" alt="Go">',
    ];
    for (const body of named) expect(page(body), body).toMatchObject({ controls: 1, controls_unnamed: 0 });
    const unnamed = [
      '<input aria-labelledby="missing">',
      '<span id="e"></span><input aria-labelledby="e">',
      '<label for="c"> </label><input id="c">',
      '<input type="checkbox" placeholder="Agree">',
      '<select placeholder="Pick"></select>',
      '<button> </button>',
      '<input type="button">',
      '<input type="image" src="go.png">',
    ];
    for (const body of unnamed) expect(page(body), body).toMatchObject({ controls: 1, controls_unnamed: 1 });
  });
});

describe('extractJsonLd', () => {
  it('refuses non-object top-level items and finds WebSite identity when no organisation is given', () => {
    const j = extractJsonLd(
      ['[1, {"@context": "http://schema.org/", "@type": "WebSite", "name": "Site", "url": "https://s.example/"}]'],
      ['Other'],
    );
    expect(j.parse_errors).toEqual(['block 1: top-level item is not an object']);
    expect(j.identity).toEqual({ type: 'WebSite', name: 'Site', url: 'https://s.example/', logo: false, same_as: 0 });
    expect(j.name_visible).toBe(false);
  });

  it('does not count a context from another vocabulary as schema.org', () => {
    expect(extractJsonLd(['{"@context": "https://example.org/vocab", "@type": "Thing"}'], []).schema_org_context).toBe(
      false,
    );
  });
});

describe('parsePage: the manifest link (HTML 4.6.7.11: the first link with rel=manifest in tree order)', () => {
  const linked = (head: string) =>
    parsePage(`<!doctype html><html><head>${head}</head><body><p>x</p></body></html>`, 'https://x.example/a/b', 0)
      .manifestLink;

  it.each([
    [
      'a relative href, resolved against the page',
      '<link rel="manifest" href="app.webmanifest">',
      'https://x.example/a/app.webmanifest',
    ],
    ['rel among other tokens, in any case', '<link rel="preload MANIFEST" href="/m.json">', 'https://x.example/m.json'],
    [
      'the first of two',
      '<link rel="manifest" href="/one.json"><link rel="manifest" href="/two.json">',
      'https://x.example/one.json',
    ],
    ['a link in the body', '</head><body><link rel="manifest" href="/late.json">', 'https://x.example/late.json'],
    ['an empty href: no manifest', '<link rel="manifest" href=" "><link rel="manifest" href="/two.json">', null],
    ['an href that does not parse: no manifest', '<link rel="manifest" href="https://[x/">', null],
    ['no manifest link', '<link rel="icon" href="/favicon.ico">', null],
  ])('%s', (_name, head, expected) => {
    expect(linked(head)).toBe(expected);
  });

  it('leaves the html facet as parseHtml gives it', () => {
    const html = '<!doctype html><html><head><link rel="manifest" href="/m.json"><title>T</title></head></html>';
    expect(parsePage(html, 'https://x.example/', 0).html).toEqual(parseHtml(html, 'https://x.example/', 0));
  });
});

describe('body helpers', () => {
  it('decodes with the header charset, then the meta charset, then UTF-8', () => {
    const latin = Buffer.from('<meta charset="iso-8859-1"><p>Gr\xfc\xdfe</p>', 'latin1');
    expect(decodeBody(latin, null)).toContain('Grüße');
    expect(decodeBody(Buffer.from('Grüße'), null)).toBe('Grüße');
    expect(decodeBody(Buffer.from('Grüße'), 'no-such-charset')).toBe('Grüße');
  });

  it('gives an unparsed facet for non-HTML responses', () => {
    expect(emptyHtml(12)).toMatchObject({ parsed: false, html_bytes: 12, title: null });
  });
});
