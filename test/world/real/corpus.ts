// The real-world corpus: documents that real sites publish, each served as the world's good site with that one
// document swapped in. `test/world/real/<kind>/<slug>/` holds the document and its source.yaml; this module reads
// the entries and builds a sites folder (the world's own sites, plus one site per entry) for startWorld.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';

export const REAL_DIR = import.meta.dirname;
const WORLD_SITES = path.join(import.meta.dirname, '..', 'sites');
const BASE_SITE = 'good';

const slug = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const sourceSchema = z
  .object({
    /** Where the document came from: an address, or a public repository and the path of the file in it. */
    source: z.union([
      z.object({ address: z.url() }).strict(),
      z
        .object({
          repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
          path: z.string().min(1),
          commit: z.string().optional(),
        })
        .strict(),
    ]),
    /** The path the site serves it at, e.g. /robots.txt or /.well-known/security.txt. */
    serve_at: z.string().regex(/^\/[^?#\s]*$/),
    /** For paths without a telling extension: the Content-Type it is served with. */
    content_type: z.string().min(1).optional(),
    /**
     * The publishing site's own host names. Their occurrences in the document name the test site instead, so the
     * document is judged as if served at home (a security.txt Canonical, a robots.txt Sitemap line).
     */
    hosts: z.array(z.string().min(1)).default([]),
    /** How the document was found, when the source alone does not say (a stored copy, a template filled in). */
    note: z.string().min(1).optional(),
    /** Rule id -> why the rule still fails for this document (and why that is right). */
    judgements: z.record(z.string().regex(/^[a-z0-9_.-]+$/), z.string().min(20)).nullish(),
  })
  .strict();

export interface RealEntry {
  kind: string;
  slug: string;
  /** The test site's folder name and domain. */
  site: string;
  domain: string;
  dir: string;
  document: string;
  source: z.infer<typeof sourceSchema>['source'];
  serveAt: string;
  contentType?: string;
  hosts: string[];
  judgements: Record<string, string>;
}

function readEntry(kind: string, name: string): RealEntry | null {
  const dir = path.join(REAL_DIR, kind, name);
  if (!slug.test(name)) throw new Error(`${dir}: the folder name must be a lower-case slug`);
  const file = path.join(dir, 'source.yaml');
  const raw = parseYaml(readFileSync(file, 'utf8')) as unknown;
  // A document bound to its publisher's address (an OpenID issuer, an agent card naming its own URL) cannot be
  // moved to a test site: test/plugins/agents/real-documents.test.ts judges those at that address.
  if (raw !== null && typeof raw === 'object' && 'address' in raw) return null;
  const parsed = sourceSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const documents = readdirSync(dir).filter((f) => f !== 'source.yaml');
  if (documents.length !== 1)
    throw new Error(`${dir}: holds ${documents.length} documents besides source.yaml, not one`);
  const site = `real-${kind}-${name}`;
  return {
    kind,
    slug: name,
    site,
    domain: `${site}.test`,
    dir,
    document: documents[0]!,
    source: parsed.data.source,
    serveAt: parsed.data.serve_at,
    ...(parsed.data.content_type ? { contentType: parsed.data.content_type } : {}),
    hosts: parsed.data.hosts,
    judgements: parsed.data.judgements ?? {},
  };
}

/** Every entry of the corpus, by kind and slug. */
export function loadCorpus(dir = REAL_DIR): RealEntry[] {
  const kinds = readdirSync(dir).filter((k) => statSync(path.join(dir, k)).isDirectory() && slug.test(k));
  return kinds.sort().flatMap((kind) =>
    readdirSync(path.join(dir, kind))
      .filter((n) => statSync(path.join(dir, kind, n)).isDirectory())
      .sort()
      .flatMap((n) => readEntry(kind, n) ?? []),
  );
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The document as the test site serves it: the publisher's host names name the test site. */
export function servedText(entry: RealEntry): string {
  const text = readFileSync(path.join(entry.dir, entry.document), 'utf8');
  // Longest first, so www.example.com is not half-replaced by example.com.
  const hosts = [...entry.hosts].sort((a, b) => b.length - a.length);
  if (hosts.length === 0) return text;
  const pattern = new RegExp(`(?<![\\w.-])(${hosts.map(escapeRegExp).join('|')})(?![\\w-])`, 'gi');
  return text.replace(pattern, '{{domain}}');
}

function siteYaml(entry: RealEntry): string {
  // Served as published: the base's signing of its own agent card does not sign a real one.
  const route = {
    sign_agent_card: null,
    ...(entry.contentType ? { headers: { 'content-type': entry.contentType } } : {}),
  };
  const routes = { [entry.serveAt]: route };
  return stringifyYaml({
    description: `good.test serving ${entry.kind}/${entry.slug} at ${entry.serveAt}`,
    extends: BASE_SITE,
    domain: entry.domain,
    aliases: [`www.${entry.domain}`],
    canonical_host: { name: entry.domain },
    routes,
  });
}

/**
 * A sites folder for startWorld: the good site (linked) and one site per entry, built on good with the entry's
 * document at its path. The caller removes it.
 */
export function buildSitesDir(entries: readonly RealEntry[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dvs-real-'));
  symlinkSync(path.join(WORLD_SITES, BASE_SITE), path.join(dir, BASE_SITE));
  for (const entry of entries) {
    const siteDir = path.join(dir, entry.site);
    const target = path.join(siteDir, 'files', entry.serveAt.replace(/\/$/, '/index.html'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, servedText(entry));
    writeFileSync(path.join(siteDir, 'site.yaml'), siteYaml(entry));
  }
  return dir;
}
