// `dvs scan --trace`: what a scan asked of the network, counted, with why each DNS question was needed. A
// question is asked once per scan whoever needs it (src/net/dns-memo.ts), and traced under the first who asked:
// the pre-scan check, a DNS facet (`dns.ns`), or a probe; the reason is the rules of the tier that read what that
// asker gathers, taken from the ruleset, so it cannot drift from what the scan judges.
import type { LoadedRule, Tier } from '../engine/types.ts';
import type { HttpConnectionCount, TracedOperation } from '../net/types.ts';
import { PREFLIGHT_SCOPE } from '../service/scanner.ts';

/** Rule ids named in a reason before the rest are counted. */
const NAMED = 3;

function readers(rules: readonly LoadedRule[], scope: string): string[] {
  const reads = (path: string) => path === scope || path.startsWith(`${scope}.`) || path.startsWith(`${scope}[`);
  return rules.filter((r) => r.requires.some(reads)).map((r) => r.id);
}

/** Why a question traced under `scope` was asked. */
function reason(rules: readonly LoadedRule[], scope: string | null): string {
  if (scope === PREFLIGHT_SCOPE)
    return 'the pre-scan check: a name without a public address is not scanned (the probes reuse the answer)';
  if (scope === null) return 'asked outside any probe';
  const ids = readers(rules, scope);
  if (ids.length === 0) return `${scope}: read by no rule of this tier`;
  const named = ids.slice(0, NAMED).join(', ');
  const more = ids.length > NAMED ? ` and ${ids.length - NAMED} more` : '';
  return `${scope}, read by ${ids.length} rule${ids.length === 1 ? '' : 's'}: ${named}${more}`;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => '  ' + r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

/** The trace as lines of text: DNS questions with their reasons, connections per origin, requests per origin. */
export function formatTrace(
  tier: Tier,
  allRules: readonly LoadedRule[],
  trace: readonly TracedOperation[],
  connections: readonly HttpConnectionCount[],
): string {
  const rules = tier === 'quick' ? allRules.filter((r) => r.tier === 'quick') : allRules;
  const dns = trace.filter((op) => op.kind === 'dns');
  const bare = trace.filter((op) => op.kind === 'tls' || op.kind === 'tcp');
  const http = trace.filter((op) => op.kind === 'http');
  const requests = new Map<string, number>();
  for (const op of http) {
    const origin = new URL(op.target.slice(op.target.indexOf(' ') + 1)).origin;
    requests.set(origin, (requests.get(origin) ?? 0) + 1);
  }
  const handshakes = new Map<string, number>();
  for (const op of bare) {
    const key = `${op.kind === 'tls' ? 'TLS handshake' : 'TCP connection'} to ${op.target.split(' ')[0]} (${op.scope ?? '-'})`;
    handshakes.set(key, (handshakes.get(key) ?? 0) + 1);
  }
  const httpConnections = connections.reduce((sum, c) => sum + c.connections, 0);
  const lines = [
    `Network trace: ${count(dns.length, 'DNS query', 'DNS queries')}, ${count(httpConnections + bare.length, 'connection')}, ` +
      `${count(http.length, 'HTTP request')}.`,
    `DNS queries (each name and type once per scan, traced under the first that asked):`,
    ...(dns.length ? table(dns.map((op) => [op.target, reason(rules, op.scope)])) : []),
    `HTTP requests per origin (a GET asked twice in a scan is sent once):`,
    ...(requests.size ? table([...requests].map(([origin, n]) => [String(n), origin])) : []),
    `HTTP connections, kept for the scan per origin and address:`,
    ...(connections.length
      ? table(connections.map((c) => [String(c.connections), `${c.origin} at ${c.address}`, `HTTP/${c.httpVersion}`]))
      : []),
    `Connections of the probes' own (a handshake is what they observe, not a way to a request):`,
    ...(handshakes.size ? table([...handshakes].map(([what, n]) => [String(n), what])) : []),
  ];
  return lines.join('\n');
}
