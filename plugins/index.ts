// The probe providers the service runs. A scan starts only those its tier's rules need
// (src/engine/observe-and-judge.ts), and a probe's module is imported the first time a scan starts it: `dvs scan`
// and a starting service load no probe code they do not use (importing all six took 0.7 s of a 2.1 s `dvs scan`).
import type { ProbeProvider, ScanProvider } from '../src/engine/types.ts';
import type { AgentsObservations } from '../src/lib/schema-types/observations/agents.ts';
import type { DnsObservations } from '../src/lib/schema-types/observations/dns.ts';
import type { HttpObservations } from '../src/lib/schema-types/observations/http.ts';
import type { ReachabilityObservations } from '../src/lib/schema-types/observations/reachability.ts';
import type { TlsObservations } from '../src/lib/schema-types/observations/tls.ts';
import type { WellknownObservations } from '../src/lib/schema-types/observations/wellknown.ts';

/** Each namespace's type, generated from its schema: the module that fills it must emit that shape. */
export interface Namespaces {
  agents: AgentsObservations;
  dns: DnsObservations;
  http: HttpObservations;
  reachability: ReachabilityObservations;
  tls: TlsObservations;
  wellknown: WellknownObservations;
}

type Loader<T> = () => Promise<{ provider: ProbeProvider<T> }>;

/** Each provider's module by the namespace it fills (test/plugins/index.test.ts checks the names match). */
export const PROVIDER_MODULES: { readonly [N in keyof Namespaces]: Loader<Namespaces[N]> } = {
  agents: () => import('./agents/index.ts'),
  dns: () => import('./dns/index.ts'),
  http: () => import('./http/index.ts'),
  reachability: () => import('./reachability/index.ts'),
  tls: () => import('./tls/index.ts'),
  wellknown: () => import('./wellknown/index.ts'),
};

function lazy(name: string, load: Loader<unknown>): ScanProvider {
  return {
    name,
    async collect(domain, ctx) {
      const { provider } = await load();
      return provider.collect(domain, ctx);
    },
  };
}

export const providers: readonly ScanProvider[] = Object.entries(PROVIDER_MODULES).map(([name, load]) =>
  lazy(name, load),
);
