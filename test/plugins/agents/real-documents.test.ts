// Documents real sites and providers publish (test/world/real/<kind>/<slug>/, each with its source), judged by the
// rules of their kind as the agents probe would describe them at the address they are published at. Every rule a
// document fails must be judged in writing in its source.yaml, and no judgement may go stale; a valid document
// fails no required rule.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { evaluateRule } from '../../../src/engine/index.ts';
import { inspectAgentCard } from '../../../plugins/agents/inspect-agent-card.ts';
import { inspectJwks } from '../../../plugins/agents/inspect-jwks.ts';
import { EMPTY_CARD, inspectMcpCard } from '../../../plugins/agents/inspect-mcp.ts';
import { inspectAuthorizationServer } from '../../../plugins/agents/inspect-oauth.ts';
import { identifierOf } from '../../../plugins/agents/oauth-locations.ts';
import { catalogue } from '../../suite/ruleset.ts';

const ROOT = path.resolve(import.meta.dirname, '../../world/real');
const OBSERVED_AT = '2026-06-01T00:00:00.000Z';
const ruleset = catalogue();

interface Source {
  source: Record<string, string>;
  address: string;
  serve_at: string;
  judgements: Record<string, string>;
}

interface Entry {
  kind: string;
  slug: string;
  file: string;
  source: Source;
}

function entries(kind: string): Entry[] {
  const dir = path.join(ROOT, kind);
  return readdirSync(dir).map((slug) => {
    const files = readdirSync(path.join(dir, slug)).filter((f) => f !== 'source.yaml');
    const source = parse(readFileSync(path.join(dir, slug, 'source.yaml'), 'utf8')) as Source;
    return { kind, slug, file: path.join(dir, slug, files[0]!), source };
  });
}

/** The facts of a document the site answers with 200 and a JSON media type. */
function served(url: string, body: string) {
  return {
    published: true,
    document: {
      url,
      status: 200,
      content_type: 'application/json',
      charset: null,
      bytes: Buffer.byteLength(body),
      truncated: false,
      redirected_to: null,
      redirects: 0,
      error: null,
      body_is_html: false,
      soft_404: false,
      access_control_allow_origin: null,
    },
    json_parsed: true,
    json_error: null,
  };
}

function missing(url: string) {
  return { ...served(url, ''), published: false, document: { ...served(url, '').document, status: 404, bytes: 0 } };
}

/** Observations of one document, and the observation paths they describe faithfully. */
async function observe(e: Entry): Promise<{ doc: Record<string, unknown>; paths: string[] }> {
  const body = readFileSync(e.file, 'utf8');
  const json: unknown = JSON.parse(body);
  const origin = /^https?:\/\/[^/]+/.exec(e.source.address)?.[0] ?? 'https://example.com';
  const url = origin + e.source.serve_at;
  if (e.kind === 'a2a-card') {
    const doc = { ...served(url, body), ...inspectAgentCard(json) };
    const absent = { ...missing(url), json_parsed: false, ...inspectAgentCard(null) };
    const legacy = e.source.serve_at.endsWith('/agent.json');
    return {
      doc: { agents: { a2a: { card: legacy ? absent : doc, legacy_card: legacy ? doc : absent } } },
      paths: ['agents.a2a.card', 'agents.a2a.legacy_card'],
    };
  }
  if (e.kind === 'mcp-manifest') {
    const host = new URL(origin).hostname;
    const manifest = { ...served(url, body), ...inspectMcpCard(json, url, host) };
    const absent = { ...missing(url), json_parsed: false, ...EMPTY_CARD };
    return { doc: { agents: { mcp: { manifest, server_card: absent } } }, paths: ['agents.mcp.manifest'] };
  }
  if (e.kind === 'openid-configuration') {
    const facts = {
      ...served(url, body),
      ...inspectAuthorizationServer(json, identifierOf(url, 'openid-configuration')),
    };
    const atRoot = e.source.serve_at === '/.well-known/openid-configuration';
    const named = {
      named_as: facts.expected_issuer,
      oauth_authorization_server: missing(url),
      openid_configuration: facts,
    };
    return atRoot
      ? { doc: { agents: { oauth: { openid_configuration: facts } } }, paths: ['agents.oauth.openid_configuration'] }
      : { doc: { agents: { oauth: { named_servers: [named] } } }, paths: ['agents.oauth.named_servers'] };
  }
  const keys = { ...(await inspectJwks(json, OBSERVED_AT)) };
  const keySet = { url: e.source.address, named_by: ['openid_configuration'], ...served(url, body), ...keys };
  return { doc: { agents: { oauth: { key_sets: [keySet] } } }, paths: ['agents.oauth.key_sets'] };
}

/** The rules that read only what the observations describe, and how each judged the document. */
async function judge(e: Entry) {
  const { doc, paths } = await observe(e);
  const rules = ruleset.rules.filter((r) =>
    r.requires.every((p) => paths.some((q) => p === q || p.startsWith(`${q}.`))),
  );
  return rules.map((rule) => ({ rule, result: evaluateRule(rule, doc) }));
}

describe.each(['a2a-card', 'mcp-manifest', 'openid-configuration', 'jwks'])('real %s documents', (kind) => {
  it.each(entries(kind).map((e) => [e.slug, e] as const))('%s: every failure is judged in writing', async (_, e) => {
    const results = await judge(e);
    expect(results.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.result.outcome === 'error')).toEqual([]);
    const failed = results
      .filter((r) => r.result.outcome === 'fail')
      .map((r) => r.rule.id)
      .sort();
    expect(failed).toEqual(Object.keys(e.source.judgements ?? {}).sort());
    for (const id of failed) expect(e.source.judgements[id]!.length).toBeGreaterThan(40);
  });
});
