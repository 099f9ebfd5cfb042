// Form controls as an agent meets them: which ones are rendered (HTML section 15, "Rendering", and the hidden
// attribute of section 6.1; WAI-ARIA 1.2 aria-hidden), and which of those have an accessible name (HTML-AAM,
// "Accessible name computations" for input, button, select and textarea).
//
// A static parse sees markup only. It knows the hidden attribute, aria-hidden="true", a closed <dialog> or
// <details> and inline style="display:none" / "visibility:hidden"; it cannot see stylesheets or scripts, so a
// control hidden by a class still counts as rendered.
import { attr, collapse, nonBlank, textOf, tokens, type T } from './html-dom.ts';
import { ASCII_WHITESPACE, trimOf } from '../../src/lib/trim.ts';

/** Whether the subtree being walked is rendered, as far as markup tells. */
export interface Rendering {
  /** Not rendered (display:none and the like) or hidden from assistive technology. */
  hidden: boolean;
  /** The inherited visibility: a descendant may set visibility:visible again. */
  visible: boolean;
}

export const RENDERED: Rendering = { hidden: false, visible: true };

/** Inline style declarations, lower-cased, !important dropped (the last declaration of a property wins). */
function inlineStyle(el: T.Element): Map<string, string> {
  const out = new Map<string, string>();
  for (const decl of (attr(el, 'style') ?? '').split(';')) {
    const colon = decl.indexOf(':');
    if (colon === -1) continue;
    const value = trimOf(decl.slice(colon + 1).replace(/!\s*important/i, ''), ASCII_WHITESPACE).toLowerCase();
    out.set(trimOf(decl.slice(0, colon), ASCII_WHITESPACE).toLowerCase(), value);
  }
  return out;
}

/** The rendering of `el` and its subtree, given its parent element and the parent's rendering. */
export function renderingOf(el: T.Element, parent: Rendering, parentEl: T.Element | null): Rendering {
  const style = inlineStyle(el);
  const closedDetails =
    parentEl?.tagName === 'details' &&
    attr(parentEl, 'open') === null &&
    !(el.tagName === 'summary' && parentEl.childNodes.find((c) => 'tagName' in c && c.tagName === 'summary') === el);
  const hidden =
    parent.hidden ||
    attr(el, 'hidden') !== null ||
    trimOf(attr(el, 'aria-hidden') ?? '', ASCII_WHITESPACE).toLowerCase() === 'true' ||
    style.get('display') === 'none' ||
    (el.tagName === 'dialog' && attr(el, 'open') === null) ||
    el.tagName === 'datalist' ||
    closedDetails;
  const visibility = style.get('visibility');
  const visible = visibility === undefined ? parent.visible : visibility === 'visible';
  return { hidden, visible };
}

export function isRendered(r: Rendering): boolean {
  return !r.hidden && r.visible;
}

export function isControl(el: T.Element): boolean {
  if (el.tagName === 'select' || el.tagName === 'textarea' || el.tagName === 'button') return true;
  return el.tagName === 'input' && trimOf(attr(el, 'type') ?? '', ASCII_WHITESPACE).toLowerCase() !== 'hidden';
}

/** What the name computation needs from the whole document. */
interface NameSources {
  /** The first element with each id, as getElementById finds it. */
  elementById: ReadonlyMap<string, T.Element>;
  /** The labels whose for= names an id. */
  labelsFor: ReadonlyMap<string, readonly T.Element[]>;
}

/** Text read only for the elements a name refers to, so a large page is not walked once per id. */
function hasText(el: T.Element | undefined): boolean {
  if (el === undefined) return false;
  return nonBlank(el, 'aria-label') !== null || collapse(textOf(el)) !== '';
}

/** Input types whose placeholder is a name of last resort (HTML-AAM, text-like inputs). */
const PLACEHOLDER_TYPES = new Set(['', 'text', 'password', 'search', 'tel', 'email', 'url', 'number']);

/** A rendered control and the nearest <label> around it. */
export interface Control {
  el: T.Element;
  label: T.Element | null;
}

function ownName(el: T.Element, type: string): boolean {
  if (el.tagName === 'button') return collapse(textOf(el)) !== '';
  if (el.tagName !== 'input') return false;
  if (type === 'submit' || type === 'reset') return true; // browsers give them a default label
  if (type === 'button') return nonBlank(el, 'value') !== null;
  if (type === 'image') return nonBlank(el, 'alt') !== null || nonBlank(el, 'value') !== null;
  return false;
}

/** HTML-AAM name computation, reduced to "is there a non-empty name". */
export function hasAccessibleName({ el, label }: Control, sources: NameSources): boolean {
  const labelledBy = tokens(el, 'aria-labelledby', false).some((id) => hasText(sources.elementById.get(id)));
  if (labelledBy || nonBlank(el, 'aria-label') !== null) return true;
  const id = attr(el, 'id');
  if (label !== null && collapse(textOf(label)) !== '') return true;
  if (id !== null && (sources.labelsFor.get(id) ?? []).some((l) => collapse(textOf(l)) !== '')) return true;
  const type = trimOf(attr(el, 'type') ?? '', ASCII_WHITESPACE).toLowerCase();
  if (ownName(el, type)) return true;
  if (nonBlank(el, 'title') !== null) return true;
  const takesPlaceholder = el.tagName === 'textarea' || (el.tagName === 'input' && PLACEHOLDER_TYPES.has(type));
  return takesPlaceholder && nonBlank(el, 'placeholder') !== null;
}
