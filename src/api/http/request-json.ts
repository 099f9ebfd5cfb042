// The JSON of a request body read without the body parser (json-body.ts), judged exactly as that parser judges
// it in strict mode (co-body with @hapi/bourne): a leading byte order mark is dropped, an empty body is {}, only
// an object or an array may stand at the top, and an object with an own member named __proto__ is refused, so
// a body means the same whichever way it was read. Every refusal is the parser's 400 SyntaxError (errors.ts).
const BOM = '\uFEFF';
/** JSON's four whitespace characters (RFC 8259 section 2), then an object or an array. */
const OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;

/** The parser's refusal, with the text it refused (as co-body gives it, so a caller can look again). */
function refused(message: string, body: string): SyntaxError {
  return Object.assign(new SyntaxError(message), { status: 400, body });
}

/** Throws when any object in the value has an own member named __proto__. */
function refuseProtoMembers(value: object, text: string): void {
  const pending: object[] = [value];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (Object.hasOwn(node, '__proto__')) throw refused('Object contains forbidden prototype property', text);
    for (const child of Object.values(node) as unknown[])
      if (child !== null && typeof child === 'object') pending.push(child);
  }
}

export function parseRequestJson(decoded: string): unknown {
  const text = decoded.startsWith(BOM) ? decoded.slice(1) : decoded;
  if (text === '') return {};
  if (!OBJECT_OR_ARRAY.test(text)) throw refused('invalid JSON, only supports object and array', text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw refused((err as Error).message, text);
  }
  // The member can only be there if its name is in the text, spelled out or escaped.
  if (text.includes('__proto__') || text.includes('\\u')) refuseProtoMembers(value as object, text);
  return value;
}
