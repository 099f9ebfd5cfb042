// Which members of a JSON document its facts are about, as JSON pointers, for the lines a report quotes beside a
// finding (issue 36). In the order the excerpt keeps them when there are more than fit: what breaks the
// document's schema first (each violation names its member; a missing required member points at the object that
// lacks it), then the members a fact names, then the members a fact is read from.
import type { MemberPointer } from '../shared/json-lines.ts';
import { violationPointer } from './document-schema.ts';
import { asArray, asObject } from './json-value.ts';

/** Facts holding violation lines (`<production> <JSON pointer>: <reason>`). */
const VIOLATIONS = ['form_violations', 'schema_violations', 'encoding_violations'];

/** Facts about the fetch or the parse, or the location, not about a member of the document. */
const NOT_MEMBERS = new Set([
  'published',
  'document',
  'json_parsed',
  'json_error',
  'expected_issuer',
  'expected_resource',
]);

/**
 * Facts read from members of another name (an A2A card's): the members, as pointers, in the order they are shown.
 * A fact named after its member, or counting one (`skills_count`), is found without this list.
 */
const READ_FROM: Record<string, readonly string[]> = {
  interface_style: ['/supportedInterfaces', '/url'],
  endpoint_urls_count: ['/supportedInterfaces', '/url'],
  endpoint_urls_non_https_count: ['/supportedInterfaces', '/url'],
  skills_incomplete_count: ['/skills'],
  modes_not_media_types: ['/defaultInputModes', '/defaultOutputModes'],
  security_undefined_refs: ['/security'],
  authorization_servers_non_https_count: ['/authorization_servers'],
};

/** `default_input_modes` -> `defaultInputModes`: facts are snake_case, many documents' members camelCase. */
const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const escape = (name: string) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

const strings = (value: unknown) => (asArray(value) ?? []).filter((v): v is string => typeof v === 'string');

/** Whether a pointer without escapes (READ_FROM's, an extension's) names a value the document has. */
function present(doc: Record<string, unknown>, pointer: string): boolean {
  let node: unknown = doc;
  for (const name of pointer.slice(1).split('/')) {
    const items = asArray(node);
    const object = asObject(node);
    if (items && /^(0|[1-9]\d*)$/.test(name) && Number(name) < items.length) node = items[Number(name)];
    else if (object && Object.hasOwn(object, name)) node = object[name];
    else return false;
  }
  return true;
}

/** The pointers the facts of one document name, in excerpt order; `value` is the document as parsed. */
export function memberPointers(facts: Record<string, unknown>, value: unknown): MemberPointer[] {
  const out: MemberPointer[] = [];
  for (const fact of VIOLATIONS)
    for (const line of strings(facts[fact])) {
      const pointer = violationPointer(line);
      if (pointer !== null) out.push([fact, pointer]);
    }
  if (strings(facts.missing_required).length) out.push(['missing_required', '']);
  for (const name of strings(facts.non_https_endpoints)) out.push(['non_https_endpoints', escape(name)]);
  // A key set's private members, on the keys that carry them.
  (asArray(facts.keys) ?? []).forEach((key, i) => {
    for (const name of strings(asObject(key)?.private_members))
      out.push(['private_members', `/keys/${i}${escape(name)}`]);
  });
  const doc = asObject(value);
  if (!doc) return out;
  // A fact named after a member (issuer, jwks_uri, protocolVersion), or counting one (skills_count), is read from it.
  for (const [fact, factValue] of Object.entries(facts)) {
    const readFrom = READ_FROM[fact];
    if (readFrom) {
      const found = readFrom.filter((pointer) => present(doc, pointer));
      // Null for want of its members: the opening line of the object that lacks them, as for a missing required one.
      for (const pointer of found.length || factValue !== null ? found : ['']) out.push([fact, pointer]);
      continue;
    }
    if (NOT_MEMBERS.has(fact) || factValue === null) continue;
    const name = fact.replace(/_count$/, '');
    const member = [name, camel(name)].find((m) => Object.hasOwn(doc, m));
    if (member !== undefined) out.push([fact, escape(member)]);
  }
  // An A2A card's extensions are read from capabilities.extensions: each one's uri, required and roles.
  if (facts.extensions !== undefined)
    (asArray(asObject(doc.capabilities)?.extensions) ?? []).forEach((_, i) => {
      for (const member of ['/uri', '/required', '/params/roles']) {
        const pointer = `/capabilities/extensions/${i}${member}`;
        if (present(doc, pointer)) out.push(['extensions', pointer]);
      }
    });
  return out;
}

/** The string values of the private members of a key set's keys (`private_members` of each key's facts). */
export function privateValues(facts: Record<string, unknown>, value: unknown): string[] {
  const keys = asArray(asObject(value)?.keys) ?? [];
  return (asArray(facts.keys) ?? []).flatMap((key, i) =>
    strings(asObject(key)?.private_members).flatMap((name) => {
      const secret = asObject(keys[i])?.[name];
      return typeof secret === 'string' ? [secret] : [];
    }),
  );
}
