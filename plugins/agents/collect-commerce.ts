// The commerce facet's documents: the UCP profile and the ACP document (the payment challenges are added by the
// probe once every facet has run).
import type { DocumentFetcher } from '../shared/fetch-document.ts';
import { described, json } from './discovery-document.ts';
import { inspectUcpProfile } from './inspect-manifests.ts';

export async function collectCommerce(f: DocumentFetcher) {
  const [ucp, acp] = await Promise.all([json(f, '/.well-known/ucp'), json(f, '/.well-known/acp.json')]);
  return {
    ucp: described(ucp, inspectUcpProfile(ucp.json)),
    acp: described(acp, {}),
  };
}
