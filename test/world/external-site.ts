// A site served by a process the world does not run (e.g. the service itself, for self-certification): the
// site's site.yaml has no `https` block, so the world only answers DNS for it and leaves its address free;
// the outside server then listens on that address and the world's HTTPS port with a certificate from the
// world's CA, and to every probe it looks like any other site.
import type { ServerCredentials } from './ca.ts';
import type { World } from './index.ts';

export interface ExternalSite {
  /** Where the outside server listens: the site's loopback address and the world's HTTPS port. */
  host: string;
  port: number;
  domain: string;
  credentials: ServerCredentials;
}

export async function externalSite(world: World, siteName: string): Promise<ExternalSite> {
  const site = world.sites.find((s) => s.name === siteName);
  if (!site) throw new Error(`no world site named ${siteName}`);
  if (site.https) throw new Error(`site ${siteName} has an https block, so the world serves it itself`);
  const credentials = await world.issueCertificate(site.name, [site.domain, ...site.aliases]);
  return { host: site.address, port: world.httpsPort, domain: site.domain, credentials };
}
