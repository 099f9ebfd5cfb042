// What a check saw, as the site sent it: the header lines of the response, the DNS records, the redirect hops,
// the lines of a document its facts point at, the certificate's names and dates. Made from the observations
// document when a Quick Scan finishes (the report keeps only each rule's fact values, by path) and kept beside the
// report in the cache, once per distinct excerpt; a Full Validation's report page makes them from its stored
// evidence. Only what the probes record can be shown: they keep headers and records as sent, and of a document its
// status, type and size, and the few lines its facts point at (robots.txt, security.txt, llms.txt, a sitemap, the JSON
// documents of the agents probe, tdmrep.json, the web app manifest), not its body.
import { analyseLogic } from '../engine/logic-analysis.ts';
import type { LoadedRule, Observations, Report } from '../engine/types.ts';
import type { Ruleset } from '../engine/ruleset.ts';

export interface Excerpt {
  /** Where the lines come from, such as "Response headers of https://example.com/ (HTTP/2 200)". */
  source: string;
  /** The lines as sent, each cut to a bounded length; empty when the site sent nothing of the kind. */
  lines: string[];
  /** With no lines: what the site did not send, such as "no Strict-Transport-Security header". */
  absent?: string;
}

/** A Quick Scan's excerpts: each distinct one once, and which one each rule's result shows. */
export interface Excerpts {
  list: Excerpt[];
  byRule: Record<string, number>;
}

const MAX_LINES = 8;
const MAX_LINE = 200;

const clip = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);
const lines = (all: string[]) => all.slice(0, MAX_LINES).map(clip);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Header field names as sites usually spell them, for the facets whose key is not the name with dashes. */
const FACET_HEADERS: Record<string, string[]> = {
  hsts: ['Strict-Transport-Security'],
  csp: ['Content-Security-Policy', 'Content-Security-Policy-Report-Only'],
  nel: ['NEL'],
  disclosure: ['Server', 'X-Powered-By', 'X-AspNet-Version', 'X-AspNetMvc-Version'],
  deprecated: ['X-XSS-Protection', 'Expect-CT', 'Public-Key-Pins', 'Feature-Policy'],
};

/** `x_content_type_options` -> `X-Content-Type-Options`. */
const headerName = (key: string) =>
  key
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('-');

function responseSource(http: Json): string {
  const response = obj(http.response);
  const url = str(obj(response.chain).final_url) ?? str(obj(response.chain).url) ?? 'the home page';
  const version = str(response.http_version);
  const status = typeof response.status === 'number' ? response.status : null;
  const line = [version ? `HTTP/${version}` : null, status].filter((p) => p !== null).join(' ');
  return `Response headers of ${url}${line ? ` (${line})` : ''}`;
}

/** The named headers of the home page's final response, one line each as the probe recorded them. */
function headerExcerpt(http: Json, names: string[]): Excerpt {
  const headers = obj(obj(http.response).headers);
  const found = names.flatMap((name) => {
    const value = str(headers[name.toLowerCase()]);
    return value === null ? [] : [`${name}: ${value}`];
  });
  const excerpt: Excerpt = { source: responseSource(http), lines: lines(found) };
  if (!found.length) excerpt.absent = `no ${names.join(' or ')} header`;
  return excerpt;
}

/** Strict-Transport-Security keeps every field line as sent (a repeated header is two lines, not one joined). */
function hstsExcerpt(http: Json): Excerpt {
  const values = list(obj(obj(http.security_headers).hsts).values).filter((v): v is string => typeof v === 'string');
  if (!values.length) return headerExcerpt(http, ['Strict-Transport-Security']);
  return { source: responseSource(http), lines: lines(values.map((v) => `Strict-Transport-Security: ${v}`)) };
}

/** Each hop of a followed chain: the request, the status and where it sent the client. */
function chainExcerpt(chain: Json, what: string): Excerpt {
  const hops = list(chain.hops).map((h) => {
    const hop = obj(h);
    const location = str(hop.location);
    const status = typeof hop.status === 'number' ? String(hop.status) : 'no answer';
    return `GET ${str(hop.url) ?? '?'} -> ${status}${location ? `, Location: ${location}` : ''}`;
  });
  const error = str(chain.error);
  if (error) hops.push(`${str(chain.url) ?? ''} -> ${error}`);
  return { source: what, lines: lines(hops), ...(hops.length ? {} : { absent: 'no answer' }) };
}

const TXT_SETS = ['spf', 'dmarc', 'mta_sts', 'tls_rpt', 'bimi'];

/** Record lines in zone-file form, or what was not found when there are none. */
const records = (source: string, found: string[], absent: string): Excerpt => ({
  source,
  lines: lines(found),
  ...(found.length ? {} : { absent }),
});

function dnsExcerpt(dns: Json, facet: string, domain: string): Excerpt | null {
  const set = obj(dns[facet]);
  const rcode = str(set.rcode) ?? 'no answer';
  if (TXT_SETS.includes(facet)) {
    const name = str(set.name) ?? domain;
    const txt = list(set.records).filter((r): r is string => typeof r === 'string');
    return records(
      `DNS TXT records at ${name}`,
      txt.map((r) => `${name}. TXT "${r}"`),
      `no TXT record (${rcode})`,
    );
  }
  if (facet === 'mx') {
    const mx = list(set.records).map((r) => `${domain}. MX ${String(obj(r).preference)} ${String(obj(r).exchange)}`);
    return records(`DNS MX records of ${domain}`, mx, `no MX record (${rcode})`);
  }
  if (facet === 'ns') {
    const zone = str(set.zone) ?? domain;
    return records(
      `DNS NS records of ${zone}`,
      list(set.names).map((n) => `${zone}. NS ${String(n)}`),
      'no NS record',
    );
  }
  if (facet === 'caa') {
    const at = str(set.found_at) ?? domain;
    const caa = list(set.records).map((r) => {
      const c = obj(r);
      return `${at}. CAA ${String(c.flags)} ${String(c.tag)} "${String(c.value)}"`;
    });
    return records(`DNS CAA records at ${at}`, caa, 'no CAA record');
  }
  if (facet === 'addresses') {
    const apex = obj(set.apex);
    const name = str(apex.name) ?? domain;
    const found = [
      ...list(apex.a).map((a) => `${name}. A ${String(obj(a).address)}`),
      ...list(apex.aaaa).map((a) => `${name}. AAAA ${String(obj(a).address)}`),
    ];
    return records(`DNS addresses of ${name}`, found, `no address (${str(apex.rcode) ?? 'no answer'})`);
  }
  return null;
}

function tlsExcerpt(tls: Json, facet: string, domain: string): Excerpt | null {
  if (facet === 'certificate') {
    const leaf = obj(obj(tls.certificate).leaf);
    if (!Object.keys(leaf).length) return null;
    return {
      source: `Certificate served for ${domain}`,
      lines: lines([
        `Subject: ${String(leaf.subject)}`,
        `Issuer: ${String(leaf.issuer)}`,
        `Valid: ${String(leaf.not_before)} to ${String(leaf.not_after)}`,
        `Names: ${list(leaf.sans).map(String).join(', ')}`,
      ]),
    };
  }
  const negotiated = obj(tls.negotiated);
  if (facet === 'negotiated' || facet === 'versions' || facet === 'ciphers') {
    const versions = obj(tls.versions);
    const offered = Object.entries(versions)
      .filter(([k, v]) => v === true && k !== 'reachable')
      .map(([k]) => k.replace('tls1_', 'TLS 1.').replace('ssl3', 'SSL 3.0'));
    return {
      source: `TLS handshakes with ${domain}`,
      lines: lines([
        `Negotiated: ${String(negotiated.protocol)} ${String(negotiated.cipher)}`,
        ...(offered.length ? [`Accepted: ${offered.join(', ')}`] : []),
      ]),
    };
  }
  return null;
}

/** The document a well-known facet fetched: its status line, type and size (the probes keep no body). */
function documentExcerpt(facetValue: Json): Excerpt | null {
  const doc = obj(facetValue.document);
  const url = str(doc.url);
  if (!url) return null;
  const error = str(doc.error);
  const type = str(doc.content_type);
  const line = error
    ? `GET ${url} -> ${error}`
    : `GET ${url} -> ${String(doc.status)}${type ? `, ${type}` : ''}${typeof doc.bytes === 'number' ? `, ${doc.bytes} bytes` : ''}`;
  const redirected = str(doc.redirected_to);
  return {
    source: 'The document as fetched',
    lines: lines([line, ...(redirected ? [`redirected to ${redirected}`] : [])]),
  };
}

/** Whether a fact the rule read (`rest`, within its facet) and a fact that points at a line name the same thing. */
const related = (rest: string, fact: string) =>
  rest === fact || fact.startsWith(`${rest}.`) || rest.startsWith(`${fact}.`);

/**
 * The document a fact path lies in: the deepest object along the path that records the fetch of one (`document`),
 * such as `wellknown.robots` or `agents.oauth.authorization_server`, and its own path.
 */
function documentAlong(path: string, doc: Json): { at: string; value: Json } | null {
  const parts = path.split('.');
  let node: unknown = doc;
  let found: { at: string; value: Json } | null = null;
  for (let i = 0; i < parts.length && isObject(node); i++) {
    node = node[parts[i]!];
    if (isObject(node) && isObject(node.document)) found = { at: parts.slice(0, i + 1).join('.'), value: node };
  }
  return found;
}

/** The lines of one fetched document that the facts `reads` (paths within it) point at, numbered, or null. */
function documentLines(found: { at: string; value: Json }, reads: readonly string[]): Excerpt | null {
  const excerpt = list(found.value.excerpt).map(obj);
  const shown = excerpt.filter((l) => list(l.facts).some((f) => reads.some((r) => related(r, String(f)))));
  if (!shown.length) return null;
  return {
    source: `Lines of ${str(obj(found.value.document).url) ?? found.at} as sent`,
    lines: lines(shown.map((l) => `${String(l.line)}: ${String(l.text)}`)),
  };
}

/**
 * The lines of a fetched document that the facts a rule read point at (its `excerpt`, in line order, numbered),
 * or null when none does: the document a rule judges is then shown as fetched.
 */
function linesExcerpt(paths: readonly string[], doc: Json): Excerpt | null {
  for (const path of paths) {
    const found = documentAlong(path, doc);
    if (!found) continue;
    const prefix = `${found.at}.`;
    const shown = documentLines(
      found,
      paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length)),
    );
    if (shown) return shown;
  }
  return null;
}

/** The value at a dotted fact path, or undefined. */
function valueAt(path: string, doc: Json): unknown {
  let node: unknown = doc;
  for (const part of path.split('.')) node = isObject(node) ? node[part] : undefined;
  return node;
}

/** Whether the value at `path` is a list holding objects. */
function listOfObjects(path: string, doc: Json): boolean {
  const node = valueAt(path, doc);
  return Array.isArray(node) && node.some(isObject);
}

/**
 * For a rule that reads a list of documents (`agents.oauth.key_sets`, `agents.oauth.named_servers`): the lines of
 * the first document in the list that the facts its logic reads of each item (`list[].fact` paths) point at.
 */
function itemLinesExcerpt(itemPaths: readonly string[], doc: Json): Excerpt | null {
  for (const itemPath of itemPaths) {
    const [listPath, rest] = itemPath.split('[].', 2);
    if (rest === undefined) continue;
    const reads = itemPaths.filter((p) => p.startsWith(`${listPath}[].`)).map((p) => p.slice(listPath!.length + 3));
    for (const item of list(valueAt(listPath!, doc))) {
      // The item is a document (a key set), or holds documents (a named server's two metadata documents).
      const found = isObject(item) && isObject(item.document) ? { at: listPath!, value: item } : null;
      const inner = found ? null : documentAlong(rest, obj(item));
      const at = found ?? (inner ? { at: `${listPath!}[].${inner.at}`, value: inner.value } : null);
      if (!at) continue;
      const within = found
        ? reads
        : reads.filter((r) => r.startsWith(`${inner!.at}.`)).map((r) => r.slice(inner!.at.length + 1));
      const shown = documentLines(at, within);
      if (shown) return shown;
    }
  }
  return null;
}

/**
 * The excerpt one fact path points to, and how specific it is (lower first): the header a security header facet
 * parsed, then another header, a record set, a certificate or a document, then a whole redirect chain.
 */
function candidate(path: string, doc: Json, domain: string): [number, Excerpt] | null {
  const [ns, facet, key] = path.split('.');
  if (!ns || !facet) return null;
  const space = obj(doc[ns]);
  if (!Object.keys(space).length) return null;
  if (ns === 'http') {
    if (facet === 'security_headers' && key)
      return [0, key === 'hsts' ? hstsExcerpt(space) : headerExcerpt(space, FACET_HEADERS[key] ?? [headerName(key)])];
    if (facet === 'redirect') return [2, chainExcerpt(obj(space.redirect), `http://${domain}/ followed`)];
    if (facet === 'www') return [2, chainExcerpt(obj(space.www), `http://www.${domain}/ followed`)];
    // The web app manifest is a fetched document like the well-known ones.
    if (facet === 'manifest') {
      const fetched = documentExcerpt(documentAlong(path, doc)?.value ?? {});
      return fetched ? [1, fetched] : null;
    }
    if (facet === 'response') {
      const response = obj(space.response);
      if (key && key !== 'chain' && key.replace(/_/g, '-') in obj(response.headers))
        return [1, headerExcerpt(space, [headerName(key)])];
      return [3, chainExcerpt(obj(response.chain), `https://${domain}/ followed`)];
    }
    return null;
  }
  const excerpt =
    ns === 'dns'
      ? dnsExcerpt(space, facet, domain)
      : ns === 'tls'
        ? tlsExcerpt(space, facet, domain)
        : ns === 'wellknown' || ns === 'agents'
          ? documentExcerpt(documentAlong(path, doc)?.value ?? {})
          : null;
  return excerpt ? [1, excerpt] : null;
}

/**
 * The excerpt for the facts a rule read: the lines of a document they point at, else the most specific excerpt
 * any of its paths points to, or null when none fits. `itemPaths` gives what the rule's logic reads of the items
 * of a list (`list[].fact`), asked only when a path it reads holds a list of objects, such as documents.
 */
export function excerptFor(
  paths: readonly string[],
  observations: Observations,
  itemPaths: () => readonly string[] = () => [],
): Excerpt | null {
  const doc = observations as unknown as Json;
  const documentLines =
    linesExcerpt(paths, doc) ?? (paths.some((p) => listOfObjects(p, doc)) ? itemLinesExcerpt(itemPaths(), doc) : null);
  if (documentLines) return documentLines;
  let best: [number, Excerpt] | null = null;
  for (const path of paths) {
    const found = candidate(path, doc, observations.target.domain);
    if (found && (!best || found[0] < best[0])) best = found;
  }
  return best?.[1] ?? null;
}

/** The item paths (`list[].fact`) a rule's logic reads. */
function itemPathsOf(rule: LoadedRule): string[] {
  const paths = new Set<string>();
  for (const logic of [rule.when, rule.check])
    if (logic !== undefined) for (const r of analyseLogic(logic).reads) if (r.path.includes('[].')) paths.add(r.path);
  return [...paths];
}

/** The excerpts of every result that applied, each distinct one kept once. */
export function excerptsOf(report: Report, observations: Observations, ruleset: Pick<Ruleset, 'byId'>): Excerpts {
  const list: Excerpt[] = [];
  const index = new Map<string, number>();
  const byRule: Record<string, number> = {};
  for (const result of report.results) {
    if (result.outcome === 'not_applicable') continue;
    const rule = ruleset.byId.get(result.id);
    const excerpt = excerptFor(rule?.reads ?? Object.keys(result.observed), observations, () =>
      rule ? itemPathsOf(rule) : [],
    );
    if (!excerpt) continue;
    const key = JSON.stringify(excerpt);
    let at = index.get(key);
    if (at === undefined) index.set(key, (at = list.push(excerpt) - 1));
    byRule[result.id] = at;
  }
  return { list, byRule };
}
