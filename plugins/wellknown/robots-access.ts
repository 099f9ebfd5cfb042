// RFC 9309 access decisions over a parsed robots.txt: which group a crawler obeys (every group naming its
// product token, merged; else every `*` group; else none) and, within it, the longest matching rule, with
// allow winning a tie. `*` matches any run of characters and a final `$` anchors the end of the path.
import type { ParsedRobots, RobotsRule } from './parse-robots.ts';

export type Decision = 'allow' | 'disallow';
export type GroupMatch = 'specific' | 'wildcard' | 'none';

export interface Access {
  decision: Decision;
  group: GroupMatch;
}

/** The rules a crawler with this product token obeys, and how its group was chosen. */
function rulesFor(parsed: ParsedRobots, token: string): { rules: RobotsRule[]; group: GroupMatch } {
  const t = token.toLowerCase();
  const specific = parsed.groups.filter((g) => g.userAgents.includes(t));
  if (t !== '*' && specific.length > 0) return { rules: specific.flatMap((g) => g.rules), group: 'specific' };
  const wildcard = parsed.groups.filter((g) => g.userAgents.includes('*'));
  if (wildcard.length > 0) return { rules: wildcard.flatMap((g) => g.rules), group: 'wildcard' };
  return { rules: [], group: 'none' };
}

const HEX = '0123456789ABCDEF';

/**
 * Percent-encodes what RFC 9309 section 2.2.2 says must be encoded before comparison (octets outside printable
 * US-ASCII) and upper-cases existing escapes, so `/%c3%a9`, `/%C3%A9` and `/é` compare equal.
 */
export function normalisePath(value: string): string {
  let out = '';
  const bytes = new TextEncoder().encode(value);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]!) && isHex(bytes[i + 2]!)) {
      out += '%' + String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!).toUpperCase();
      i += 2;
    } else if (b <= 0x20 || b >= 0x7f) {
      out += '%' + HEX[b >> 4] + HEX[b & 15];
    } else {
      out += String.fromCharCode(b);
    }
  }
  return out;
}

function isHex(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

/** Whether a normalised pattern matches a normalised path (prefix match unless the pattern ends with `$`). */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const p = anchored ? pattern.slice(0, -1) : pattern;
  // Iterative glob match with single-star backtracking: linear in practice, never exponential.
  let pi = 0;
  let si = 0;
  let star = -1;
  let mark = 0;
  while (si < path.length) {
    if (pi < p.length && p[pi] === '*') {
      star = pi++;
      mark = si;
    } else if (pi < p.length && p[pi] === path[si]) {
      pi++;
      si++;
    } else if (pi === p.length && !anchored) {
      return true;
    } else if (star >= 0) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

/** The decision for one path under a set of rules: longest matching pattern wins, allow wins a tie. */
export function decideRules(rules: RobotsRule[], path: string): Decision {
  const target = normalisePath(path);
  let best: { length: number; kind: Decision } | null = null;
  for (const rule of rules) {
    if (rule.pattern === '') continue; // an empty rule matches nothing (RFC 9309 section 2.2.2)
    const pattern = normalisePath(
      rule.pattern.startsWith('/') || rule.pattern.startsWith('*') ? rule.pattern : '/' + rule.pattern,
    );
    if (!patternMatches(pattern, target)) continue;
    if (!best || pattern.length > best.length || (pattern.length === best.length && rule.kind === 'allow')) {
      best = { length: pattern.length, kind: rule.kind };
    }
  }
  return best?.kind ?? 'allow';
}

/** Whether a crawler with this product token may fetch the path. `/robots.txt` itself is always allowed. */
export function decide(parsed: ParsedRobots, token: string, path: string): Access {
  const { rules, group } = rulesFor(parsed, token);
  if (path === '/robots.txt') return { decision: 'allow', group };
  return { decision: decideRules(rules, path), group };
}
