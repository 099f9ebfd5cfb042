// WebMCP declarative tools read from markup (plugins/http/html-webmcp.ts): the examples of the WebMCP explainer
// and of Chrome's declarative API page verbatim, two published pages, forms generated from the attributes'
// grammar, and forms with one production broken.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../plugins/http/parse-html.ts';
import { expectEvery } from '../../helpers/every.ts';

const REAL = path.join(import.meta.dirname, '..', '..', 'world', 'real', 'webmcp');

const webmcp = (html: string) => parseHtml(html, 'https://shop.example/', html.length).webmcp!;

describe('WebMCP tools: the specifications own examples', () => {
  it("reads the explainer's search-cars form (webmachinelearning/webmcp declarative-api-explainer.md)", () => {
    const html = `<form toolname="search-cars" tooldescription="Perform a car make/model search" [...]>
 <input type=text name="make" toolparamdescription="The vehicle's make (i.e., BMW, Ford)" required>
 <input type=text name="model" toolparamdescription="The vehicle's model (i.e., 330i, F-150)" required>
 <button type=submit>Search</button>
</form>`;
    expect(webmcp(html)).toEqual({
      tools_count: 1,
      tools: [
        {
          name: 'search-cars',
          description: 'Perform a car make/model search',
          params_count: 2,
          params: [
            { name: 'make', description_source: 'toolparamdescription', title: null },
            { name: 'model', description_source: 'toolparamdescription', title: null },
          ],
        },
      ],
      duplicate_names: [],
    });
  });

  it("reads Chrome's supportRequestTool form: labels describe the fields that carry no toolparamdescription", () => {
    const html = `<form toolname="supportRequestTool"
  tooldescription="Submit a request for support."
  action="/submit">

  <label for="firstName">First Name</label>
  <input type=text name=firstName>

  <label for="lastName">Last Name</label>
  <input type=text name=lastName>

  <select name="select" required toolparamtitle="Support type"
    toolparamdescription="Determines what team this request is routed to.">
    <option value="Customer happiness team">Return my purchase.</option>
    <option value="Distribution team">Check where my package is.</option>
    <option value="Website support team">Get help on the website.</option>
  </select>

  <button type=submit>Submit</button>
</form>`;
    // The inputs carry name= but no id=, so the labels' for= names nothing: the page as written leaves them
    // undescribed, which is what a browser computes too.
    expect(webmcp(html).tools[0]!.params).toEqual([
      { name: 'firstName', description_source: null, title: null },
      { name: 'lastName', description_source: null, title: null },
      { name: 'select', description_source: 'toolparamdescription', title: 'Support type' },
    ]);
  });

  it('reads the published demos of Chrome (test/world/real/webmcp)', () => {
    const page = (slug: string) => webmcp(readFileSync(path.join(REAL, slug, 'index.html'), 'utf8'));
    const bistro = page('french-bistro');
    expect(bistro.tools.map((t) => [t.name, t.params_count])).toEqual([['book_table_le_petit_bistro', 7]]);
    expectEvery(
      bistro.tools[0]!.params,
      (p) => p.description_source === 'toolparamdescription',
      'bistro parameters described by toolparamdescription',
    );
    expect(page('order-tracking').tools).toEqual([
      {
        name: 'get_order_status',
        description: 'Search orders in a given timeframe. Returns order number, shipping status and location',
        params_count: 1,
        params: [{ name: 'timeframe', description_source: 'toolparamdescription', title: null }],
      },
    ]);
  });
});

const toolName = fc.stringMatching(/^[A-Za-z0-9_.-]{1,128}$/);
const words = fc.stringMatching(/^[A-Za-z]{1,12}( [A-Za-z,.]{1,12}){0,6}$/);
const fieldName = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/);
type Described = 'toolparamdescription' | 'label' | 'aria-description';
const field = fc.record({
  name: fieldName,
  how: fc.constantFrom<Described>('toolparamdescription', 'label', 'aria-description'),
  text: words,
  kind: fc.constantFrom('text', 'email', 'number', 'select', 'textarea'),
});
type Field = { name: string; how: Described; text: string; kind: string };

function fieldHtml(f: Field, id: string): string {
  const attrs = `name="${f.name}" id="${id}"${f.how === 'toolparamdescription' ? ` toolparamdescription="${f.text}"` : ''}${
    f.how === 'aria-description' ? ` aria-description="${f.text}"` : ''
  }`;
  const control =
    f.kind === 'select'
      ? `<select ${attrs}><option>one</option></select>`
      : f.kind === 'textarea'
        ? `<textarea ${attrs}></textarea>`
        : `<input type="${f.kind}" ${attrs}>`;
  return f.how === 'label' ? `<label for="${id}">${f.text}</label>${control}` : control;
}

const formHtml = (name: string, description: string, fields: Field[]) =>
  `<form toolname="${name}" tooldescription="${description}">${fields.map((f, i) => fieldHtml(f, `${name}-${i}`)).join('\n')}<button>Go</button></form>`;

const distinctFields = fc.uniqueArray(field, { selector: (f) => f.name, maxLength: 6 });

describe('WebMCP tools: forms generated from the grammar', () => {
  it('every tool, with its name, description and each parameter described as written', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(toolName, words, distinctFields), {
          selector: (t) => t[0],
          minLength: 1,
          maxLength: 4,
        }),
        (tools) => {
          const html = `<!doctype html><body>${tools.map(([n, d, f]) => formHtml(n, d, f)).join('')}</body>`;
          const facts = webmcp(html);
          expect(facts.tools_count).toBe(tools.length);
          expect(facts.duplicate_names).toEqual([]);
          expect(facts.tools).toEqual(
            tools.map(([name, description, fields]) => ({
              name,
              description,
              params_count: fields.length,
              params: fields.map((f) => ({ name: f.name, description_source: f.how, title: null })),
            })),
          );
        },
      ),
    );
  });
});

describe('WebMCP tools: one production broken', () => {
  const base = (rest = '') =>
    `<form toolname="book" tooldescription="Books a table"><label>Guests <input name="guests"></label>${rest}</form>`;

  it('a form without toolname is no tool', () => {
    expect(webmcp(base().replace(' toolname="book"', '')).tools_count).toBe(0);
  });

  it('a missing tooldescription is null, a blank one is empty', () => {
    expect(webmcp(base().replace(' tooldescription="Books a table"', '')).tools[0]!.description).toBeNull();
    expect(webmcp(base().replace('Books a table', '  ')).tools[0]!.description).toBe('');
  });

  it('a field whose label holds only the field is undescribed', () => {
    const html = base().replace('<label>Guests <input name="guests"></label>', '<label><input name="guests"></label>');
    expect(webmcp(html).tools[0]!.params).toEqual([{ name: 'guests', description_source: null, title: null }]);
  });

  it("a label's text does not describe a field it does not label (for= names another)", () => {
    const html = base().replace(
      '<label>Guests <input name="guests"></label>',
      '<label for="x">Guests <input name="guests"></label>',
    );
    expect(webmcp(html).tools[0]!.params[0]!.description_source).toBeNull();
  });

  it('a second form of the same name is a duplicate', () => {
    expect(webmcp(base() + base()).duplicate_names).toEqual(['book']);
  });

  it('fields outside the form join it through form=, and leave it through form= naming another', () => {
    const html = `${base('<input name="away" form="other" toolparamdescription="x">')}<form id="other" toolname="o" tooldescription="d"></form><input name="date" form="f1" toolparamdescription="The date">`;
    const withId = html.replace('<form toolname="book"', '<form id="f1" toolname="book"');
    expect(webmcp(withId).tools.map((t) => t.params.map((p) => p.name))).toEqual([['guests', 'date'], ['away']]);
  });

  it('hidden, submit and button inputs are not parameters; radio buttons of one name are one', () => {
    const html = base(
      '<input type="hidden" name="token"><input type="submit" name="go"><input type="radio" name="size" value="s"><label><input type="radio" name="size" value="l">Large</label>',
    );
    expect(webmcp(html).tools[0]!.params).toEqual([
      { name: 'guests', description_source: 'label', title: null },
      { name: 'size', description_source: 'label', title: null },
    ]);
  });

  it('forms inside <noscript> and <template> are not tools a scripting browser registers', () => {
    expect(webmcp(`<body><noscript>${base()}</noscript><template>${base()}</template></body>`).tools_count).toBe(0);
  });

  it('lists at most 50 tools and counts them all', () => {
    const facts = webmcp(Array.from({ length: 60 }, (_, i) => base().replace('"book"', `"t${i}"`)).join(''));
    expect([facts.tools_count, facts.tools.length]).toEqual([60, 50]);
  });
});
