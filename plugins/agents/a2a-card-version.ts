// Which A2A protocol version an agent card is judged against: the version it declares, mapped to the schema
// line that version belongs to. Cards of every published version are still served, and a card is valid when it
// satisfies the version it claims, not the newest one.
//
//   0.1       v0.1.0: agent.json, `authentication`, modes free-form (default ["text"])
//   0.2       v0.2.0 to v0.2.4: securitySchemes/security, modes are media types, no protocolVersion member
//   0.3       v0.2.5 to v0.3.x: protocolVersion required, preferredTransport, additionalInterfaces, signatures
//   1.0       v1.0.x: supportedInterfaces[] (url, protocolBinding, protocolVersion), securityRequirements
import { asArray, asObject, asString, type JsonObject } from './json-value.ts';
import { ASCII_WHITESPACE, trimOf } from '../../src/lib/trim.ts';

export type CardSchemaLine = '0.1' | '0.2' | '0.3' | '1.0';

const VERSION = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/;

/** The schema line of a version string; null when the string is not a version. */
export function lineOfVersion(version: string): CardSchemaLine | null {
  const m = VERSION.exec(trimOf(version, ASCII_WHITESPACE));
  if (!m) return null;
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (major >= 1) return '1.0';
  if (minor >= 3 || (minor === 2 && patch >= 5)) return '0.3';
  if (minor === 2) return '0.2';
  return '0.1';
}

/** The version the card declares: its first interface's protocolVersion (1.0), else the top-level member. */
export function declaredVersion(card: JsonObject): string | null {
  const first = asObject((asArray(card.supportedInterfaces) ?? [])[0]);
  return asString(first?.protocolVersion) ?? asString(card.protocolVersion);
}

/**
 * The line to judge the card against. A card shaped for 1.0 (supportedInterfaces) is judged as 1.0 whatever
 * version its interfaces speak; otherwise the declared version decides. A card that declares none and carries a
 * top-level `url` predates the protocolVersion member: 0.1 when it carries the 0.1 `authentication` member, else
 * 0.2. One with no endpoint at all is held to the current version, whose endpoint member it then lacks.
 */
export function cardSchemaLine(card: JsonObject): CardSchemaLine {
  if (asArray(card.supportedInterfaces)) return '1.0';
  const declared = asString(card.protocolVersion);
  const line = declared === null ? null : lineOfVersion(declared);
  if (line !== null) return line;
  if (card.authentication !== undefined && card.securitySchemes === undefined) return '0.1';
  return card.url !== undefined ? '0.2' : '1.0';
}
