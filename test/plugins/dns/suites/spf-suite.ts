// Runs a YAML SPF test suite of the OpenSPF format (scenarios of zone data and cases of helo, host, mailfrom
// and the expected result) through the scan's own SPF path: the record collected and walked against the zone
// held in memory, then judged by the rules that stand for a permerror. The suite's answer is compared on one
// question, the one a validator answers: does the domain's policy end in permerror.
import { readFileSync } from 'node:fs';
import { collectSpf, expandSpf } from '../../../../plugins/dns/collect-spf.ts';
import { createQuerier } from '../../../../plugins/dns/query.ts';
import { rootInput, truthy } from '../../../../src/engine/compile.ts';
import { NetError, type DnsRecord, type DnsResponse, type Net } from '../../../../src/net/types.ts';
import { catalogue } from '../../../suite/ruleset.ts';

type Entry = 'TIMEOUT' | Record<string, unknown>;
export interface SpfCase {
  helo: string;
  host: string;
  mailfrom: string;
  result: string | string[];
}
export interface SpfScenario {
  zonedata: Record<string, Entry[]>;
  tests: Record<string, SpfCase>;
}

/** The rules whose failure a receiver's permerror stands for (RFC 7208 sections 4.5, 4.6, 4.6.4, 5.2, 6.1). */
const PERMERROR_RULES = [
  'single',
  'syntax_valid',
  'lookup_limit',
  'void_lookup_limit',
  'mx_names_limit',
  'include_targets_published',
  'included_records_valid',
].map((name) => {
  // From the loaded catalogue: a rule file's `when` may name a precondition, which loading puts in place.
  const rule = catalogue().byId.get(`email.spf.${name}`);
  if (!rule) throw new Error(`no rule email.spf.${name}`);
  return { name, compiled: rule.compiled };
});

interface Rr {
  type: string;
  data: unknown;
}
type Node = Array<'TIMEOUT' | Rr | { type: string; timeout: true }>;

/** The suite's zone conventions: SPF-type data doubles as TXT unless the name has TXT data, NONE is no data. */
function zoneOf(zonedata: Record<string, Entry[]>): Map<string, Node> {
  const zone = new Map<string, Node>();
  for (const [name, entries] of Object.entries(zonedata)) {
    const node: Node = [];
    const hasTxt = entries.some((e) => e !== 'TIMEOUT' && 'TXT' in e);
    for (const e of entries) {
      if (e === 'TIMEOUT') node.push('TIMEOUT');
      else
        for (const [type, v] of Object.entries(e)) {
          const t = type === 'SPF' ? (hasTxt ? null : 'TXT') : type;
          if (t === null || v === 'NONE') continue;
          if (v === 'TIMEOUT') node.push({ type: t, timeout: true });
          else node.push({ type: t, data: t === 'TXT' ? (typeof v === 'string' ? [v] : v) : mxOf(t, v) });
        }
    }
    zone.set(name.toLowerCase(), node);
  }
  return zone;
}

const mxOf = (type: string, v: unknown) =>
  type === 'MX' ? { preference: (v as [number, string])[0], exchange: (v as [number, string])[1] } : v;

const timeout = (name: string) => new NetError('dns_timeout', `no answer for ${name}`);

/** Answers like the suite's drivers: a bare TIMEOUT before any data of the asked type times out; CNAME followed once. */
function answer(zone: Map<string, Node>, name: string, type: string, depth = 0): DnsResponse {
  const base = { flags: { ad: false, aa: false, tc: false }, authorities: [], server: 'memory' };
  const node = zone.get(name.toLowerCase().replace(/\.$/, ''));
  if (node === undefined) {
    if (name.startsWith('error.')) throw timeout(name);
    return { ...base, rcode: 'NXDOMAIN', answers: [] };
  }
  const answers: DnsRecord[] = [];
  for (const item of node) {
    if (item === 'TIMEOUT') {
      if (!answers.some((a) => a.type === type)) throw timeout(name);
      break;
    }
    if ('timeout' in item) {
      if (item.type === type) throw timeout(name);
      continue;
    }
    answers.push({ name, type: item.type, ttl: 60, data: item.data });
    if (item.type === 'CNAME' && depth === 0) answers.push(...answer(zone, String(item.data), type, 1).answers);
  }
  return { ...base, rcode: 'NOERROR', answers };
}

/** The domain whose policy is evaluated: the mailfrom's, or the HELO name when mailfrom is empty (section 2.4). */
function domainOf(c: SpfCase): string | null {
  const domain = c.mailfrom === '' ? c.helo : c.mailfrom.slice(c.mailfrom.lastIndexOf('@') + 1);
  const labels = domain.split('.');
  // Section 4.3: a name that is not a multi-label domain of labels 1 to 63 long gives "none" without a lookup.
  return labels.length < 2 || labels.some((l) => l.length === 0 || l.length > 63) ? null : domain;
}

export type Answer = 'permerror' | 'no permerror';

/** What the scan says of the case's domain. */
export async function judge(scenario: SpfScenario, c: SpfCase): Promise<Answer> {
  const domain = domainOf(c);
  if (domain === null) return 'no permerror';
  const zone = zoneOf(scenario.zonedata);
  const net = { dns: (name: string, type: string) => Promise.resolve().then(() => answer(zone, name, type)) };
  const q = createQuerier(net as unknown as Net, new AbortController().signal);
  let observations;
  try {
    const spf = await collectSpf(q, domain);
    observations = { dns: { spf, spf_expansion: await expandSpf(q, spf) } };
  } catch (err) {
    if (err instanceof NetError) return 'no permerror'; // temperror: the domain's own record did not come
    throw err;
  }
  const fails = PERMERROR_RULES.filter(({ compiled }) => {
    const input = rootInput(observations, compiled.paths);
    return (compiled.when === null || truthy(compiled.when(input))) && !truthy(compiled.check(input));
  });
  return fails.length > 0 ? 'permerror' : 'no permerror';
}

/** The suite's answer: a case whose accepted results include permerror and another accepts both. */
export function expected(c: SpfCase): Answer | 'either' {
  const results = Array.isArray(c.result) ? c.result : [c.result];
  if (!results.includes('permerror')) return 'no permerror';
  return results.length > 1 ? 'either' : 'permerror';
}

export function loadSuite(file: string): SpfScenario[] {
  return JSON.parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8')) as SpfScenario[];
}

export async function outcomes(scenarios: SpfScenario[]) {
  const all = scenarios.flatMap((s) => Object.entries(s.tests).map(([id, c]) => ({ id, s, c })));
  return Promise.all(
    all.map(async ({ id, s, c }) => {
      const want = expected(c);
      const got = await judge(s, c);
      return { id, agrees: want === 'either' || want === got, want, got };
    }),
  );
}
