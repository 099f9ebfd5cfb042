// The lazily loaded providers: each module fills the namespace it is registered under, and the scan sees
// the same names before any module is imported.
import { expect, it } from 'vitest';
import { PROVIDER_MODULES, providers } from '../../plugins/index.ts';

it('registers every provider under the namespace its module fills', async () => {
  for (const [name, load] of Object.entries(PROVIDER_MODULES)) {
    const { provider } = await load();
    expect(provider.name).toBe(name);
  }
  expect(providers.map((p) => p.name)).toEqual(Object.keys(PROVIDER_MODULES));
  expect(providers.map((p) => p.name)).toEqual(['agents', 'dns', 'http', 'reachability', 'tls', 'wellknown']);
});
