// The undici modules connection-pools.ts imports one by one, typed as the package's index exports them (the
// package types its index only). undici is pinned to an exact version, and the scans of the tests load them all.
declare module 'undici/lib/dispatcher/client.js' {
  import type { Client } from 'undici';
  const client: typeof Client;
  export default client;
}

declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const pool: typeof Pool;
  export default pool;
}

declare module 'undici/lib/core/connect.js' {
  import type { buildConnector } from 'undici';
  const connect: typeof buildConnector;
  export default connect;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
