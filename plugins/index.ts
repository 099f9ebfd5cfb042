// The probe providers the service runs. A scan starts only those its tier's rules need (src/engine/scan.ts).
import type { ProbeProvider } from '../src/engine/types.ts';
import { provider as agents } from './agents/index.ts';
import { provider as dns } from './dns/index.ts';
import { provider as http } from './http/index.ts';
import { provider as reachability } from './reachability/index.ts';
import { provider as tls } from './tls/index.ts';
import { provider as wellknown } from './wellknown/index.ts';

export const providers: readonly ProbeProvider[] = [agents, dns, http, reachability, tls, wellknown];
