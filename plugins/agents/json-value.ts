// Small readers over untrusted JSON: every document we analyse comes from a scanned host and may hold any shape,
// so each accessor answers null instead of assuming one.
import { onSite } from '../../src/net/site-url.ts';

export type JsonObject = Record<string, unknown>;

/** The value of a JSON text, or null when it does not parse (a document that is not JSON has no shape to read). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function asObject(value: unknown): JsonObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function asArray(value: unknown): unknown[] | null {
  return Array.isArray(value) ? value : null;
}

/** The strings of a list, sorted and de-duplicated; null when the value is not a list. */
export function stringList(value: unknown): string[] | null {
  const list = asArray(value);
  if (!list) return null;
  return [...new Set(list.filter((v): v is string => typeof v === 'string'))].sort();
}

/** Sorted keys of an object, or [] for anything else. */
export function objectKeys(value: unknown): string[] {
  const obj = asObject(value);
  return obj ? Object.keys(obj).sort() : [];
}

export function isHttpsUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** An absolute URL for `value` resolved against `base`, or null when it does not parse. */
export function resolveUrl(value: unknown, base: string): string | null {
  if (typeof value !== 'string' || value === '') return null;
  try {
    return new URL(value, base).href;
  } catch {
    return null;
  }
}

/** Whether a URL's host is the scanned domain or one of its subdomains. */
export function urlOnSite(url: string, domain: string): boolean {
  try {
    return onSite(new URL(url).hostname, domain);
  } catch {
    return false;
  }
}
