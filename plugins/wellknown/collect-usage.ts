// The usage facet: machine-readable AI-use preferences a site states in its well-known files: Content-Signal,
// Content-Usage and License records of robots.txt, and /.well-known/tdmrep.json. Header and HTML-meta
// signals (TDM-Reservation, X-Robots-Tag) belong to the http probe.
import { robotsFile } from './collect-robots.ts';
import { parseContentSignal } from './parse-content-signal.ts';
import { parseTdmRep } from './parse-tdmrep.ts';
import { decideRules } from './robots-access.ts';
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import type { ParsedRobots } from './parse-robots.ts';

function agentsOf(parsed: ParsedRobots, group: number | null): string[] {
  return group === null ? [] : (parsed.groups[group]?.userAgents ?? []);
}

export async function collectUsage(f: DocumentFetcher) {
  const [robots, tdmFile] = await Promise.all([robotsFile(f), f.open('/.well-known/tdmrep.json')]);
  const p = robots.published ? robots.parsed : null;
  const tdm = tdmFile.published && tdmFile.exchange ? parseTdmRep(tdmFile.exchange.body) : null;
  return {
    content_signals: p
      ? p.contentSignals.map((r) => {
          const parsed = parseContentSignal(r.value);
          const group = r.group === null ? null : p.groups[r.group];
          return {
            line: r.line,
            user_agents: agentsOf(p, r.group),
            value: r.value,
            signals: parsed.signals,
            problems: parsed.problems,
            // What the group's own rules say about `/`: a signal inviting search on a closed site contradicts itself.
            root: group ? decideRules(group.rules, '/') : null,
          };
        })
      : null,
    content_usage: p
      ? p.contentUsage.map((r) => ({ line: r.line, user_agents: agentsOf(p, r.group), value: r.value }))
      : null,
    licenses: p ? p.licenses : null,
    tdmrep: {
      published: tdmFile.published,
      document: tdmFile.document,
      json: tdm?.json ?? null,
      array: tdm?.array ?? null,
      entries: tdm ? tdm.entries : null,
      problems: tdm ? tdm.problems : null,
      excerpt: tdm ? tdm.excerpt : null,
    },
  };
}
