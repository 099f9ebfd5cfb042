// WebMCP declarative tools as a page's markup declares them (W3C Web Machine Learning CG draft, "WebMCP";
// Chrome's declarative API documentation): a <form> with a toolname attribute is a tool, tooldescription says
// what it does, and the form's named fields are its parameters, described by toolparamdescription, else by
// their <label>, else by aria-description, and titled by toolparamtitle.
//
// Only markup is read. Tools registered by script (navigator.modelContext.registerTool, the imperative API) and
// attributes a script sets are invisible to a static parse; the facts' schema says so beside every rule.
import { attr, collapse, isElement, walkTree, type T } from './html-dom.ts';
import type { HtmlFacet } from './types.ts';
import { ASCII_WHITESPACE, trimOf } from '../../src/lib/trim.ts';

type WebMcpFacet = NonNullable<HtmlFacet['webmcp']>;
type Param = WebMcpFacet['tools'][number]['params'][number];

/** Tools and parameters recorded per page and per tool: the counts say how many there were. */
const MAX_LISTED = 50;

/** Input types that submit, reset or carry nothing an agent fills in. */
const NOT_PARAMETERS = new Set(['hidden', 'submit', 'reset', 'button', 'image']);

/** Labelable elements (HTML section 4.10.2): their text is not part of a label's text for another field. */
const LABELABLE = new Set(['button', 'input', 'meter', 'output', 'progress', 'select', 'textarea']);

/** Whether an element is a field that becomes a tool parameter. */
export function isParameterField(el: T.Element): boolean {
  if (el.tagName === 'select' || el.tagName === 'textarea') return true;
  return el.tagName === 'input' && !NOT_PARAMETERS.has(trimOf(attr(el, 'type') ?? '', ASCII_WHITESPACE).toLowerCase());
}

/** A field as the page walk met it: the nearest <form> and <label> around it. */
export interface FieldInContext {
  el: T.Element;
  form: T.Element | null;
  label: T.Element | null;
}

/** What resolving labels and form owners needs from the whole document. */
export interface DocumentIndex {
  elementById: ReadonlyMap<string, T.Element>;
  labelsFor: ReadonlyMap<string, readonly T.Element[]>;
}

/** A label's text without the text of the fields inside it (Chrome "skips labelable descendants"). */
function labelText(label: T.Element): string {
  const texts: string[] = [];
  walkTree(label, true, (node) => {
    if (node.nodeName === '#text') texts.push((node as T.TextNode).value);
    if (!isElement(node) || node === label) return true;
    return LABELABLE.has(node.tagName) || node.tagName === 'script' || node.tagName === 'style' ? null : true;
  });
  return collapse(texts.join(' '));
}

const text = (value: string | null): string | null => {
  const v = value === null ? '' : collapse(value);
  return v === '' ? null : v;
};

/** The labels of a field: those naming its id (when it is the element that id finds), and a wrapping one. */
function labelsOf(field: FieldInContext, index: DocumentIndex): T.Element[] {
  const id = attr(field.el, 'id');
  const byFor = id !== null && index.elementById.get(id) === field.el ? (index.labelsFor.get(id) ?? []) : [];
  // A wrapping label with a for= labels the element it names, not this one.
  const wrapping = field.label !== null && attr(field.label, 'for') === null ? [field.label] : [];
  return [...byFor, ...wrapping];
}

function descriptionSource(field: FieldInContext, index: DocumentIndex): Param['description_source'] {
  if (text(attr(field.el, 'toolparamdescription')) !== null) return 'toolparamdescription';
  if (labelsOf(field, index).some((l) => labelText(l) !== '')) return 'label';
  if (text(attr(field.el, 'aria-description')) !== null) return 'aria-description';
  return null;
}

/** The form a field belongs to: the one its form= attribute names, else the form around it (HTML 4.10.17.3). */
function ownerOf(field: FieldInContext, index: DocumentIndex): T.Element | null {
  const named = attr(field.el, 'form');
  if (named === null) return field.form;
  const owner = index.elementById.get(named);
  return owner?.tagName === 'form' ? owner : null;
}

/** A tool's parameters: fields grouped by name in document order, each described by the first that can be. */
function paramsOf(fields: readonly FieldInContext[], index: DocumentIndex): Param[] {
  const byName = new Map<string, Param>();
  for (const field of fields) {
    const name = attr(field.el, 'name');
    if (name === null || name === '') continue;
    const seen = byName.get(name);
    const param = seen ?? { name, description_source: null, title: null };
    param.description_source ??= descriptionSource(field, index);
    param.title ??= text(attr(field.el, 'toolparamtitle'));
    if (!seen) byName.set(name, param);
  }
  return [...byName.values()];
}

/** The page's declarative tools, from its tool forms and every parameter field the walk met (document order). */
export function webMcpTools(
  forms: readonly T.Element[],
  fields: readonly FieldInContext[],
  index: DocumentIndex,
): WebMcpFacet {
  const fieldsByForm = new Map<T.Element, FieldInContext[]>(forms.map((f) => [f, []]));
  for (const field of fields) {
    const owner = ownerOf(field, index);
    if (owner !== null) fieldsByForm.get(owner)?.push(field);
  }
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const form of forms) {
    const name = attr(form, 'toolname')!;
    if (seen.has(name)) duplicates.add(name);
    seen.add(name);
  }
  const tools = forms.slice(0, MAX_LISTED).map((form) => {
    const description = attr(form, 'tooldescription');
    const params = paramsOf(fieldsByForm.get(form)!, index);
    return {
      name: attr(form, 'toolname')!,
      description: description === null ? null : collapse(description),
      params_count: params.length,
      params: params.slice(0, MAX_LISTED),
    };
  });
  return { tools_count: forms.length, tools, duplicate_names: [...duplicates].sort() };
}
