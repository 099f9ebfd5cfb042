// The a2a facet: the A2A agent card at its current and legacy locations, with their signatures verified.
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import { described, json, JWKS_ACCEPT } from './discovery-document.ts';
import { inspectAgentCard } from './inspect-agent-card.ts';
import { KeySets, verifyCardSignatures } from './verify-card-signatures.ts';

export async function collectA2a(f: DocumentFetcher) {
  const [card, legacy] = await Promise.all([
    json(f, '/.well-known/agent-card.json'),
    json(f, '/.well-known/agent.json'),
  ]);
  // One budget of key sets for both cards; a key set also read by another facet is fetched once (the fetcher's memo).
  const keySets = new KeySets(async (url) => {
    const doc = await json(f, url, JWKS_ACCEPT);
    return doc.facts.published ? doc.json : null;
  });
  // One card after the other: which key sets fit the budget must not depend on which answer came first.
  const cardSignatures = await verifyCardSignatures(card.json, f.domain, keySets);
  const legacySignatures = await verifyCardSignatures(legacy.json, f.domain, keySets);
  return {
    card: described(card, { ...inspectAgentCard(card.json), signatures: cardSignatures }),
    legacy_card: described(legacy, { ...inspectAgentCard(legacy.json), signatures: legacySignatures }),
  };
}
