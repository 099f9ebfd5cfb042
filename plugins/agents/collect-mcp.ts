// The mcp facet: the MCP manifest and server card, the catalog, and a session with the endpoint the cards name.
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import { described, json, type JsonDocument } from './discovery-document.ts';
import { inspectEntryCatalog } from './inspect-catalogs.ts';
import { EMPTY_CARD, inspectMcpCard, pickEndpoint } from './inspect-mcp.ts';
import { talkToEndpoint } from './mcp-session.ts';

export async function collectMcp(f: DocumentFetcher) {
  const card = (doc: JsonDocument) =>
    described(doc, doc.facts.json_parsed ? inspectMcpCard(doc.json, doc.facts.document.url, f.domain) : EMPTY_CARD);
  // The endpoint is named by the cards alone: the session starts without waiting for the catalog.
  const cardsAndEndpoint = async () => {
    const [manifest, serverCard] = await Promise.all([
      json(f, '/.well-known/mcp.json'),
      json(f, '/.well-known/mcp/server-card.json'),
    ]);
    const cards = [card(serverCard), card(manifest)] as const;
    const remote = pickEndpoint(cards.flatMap((c) => c.remotes));
    return { cards, endpoint: remote ? await talkToEndpoint(f, remote) : null };
  };
  const [{ cards, endpoint }, catalog] = await Promise.all([
    cardsAndEndpoint(),
    json(f, '/.well-known/mcp/catalog.json'),
  ]);
  return {
    manifest: cards[1],
    server_card: cards[0],
    catalog: described(catalog, inspectEntryCatalog(catalog.json)),
    endpoint,
  };
}
