// What an instance looks up outside a scan (a batch item's addresses for the politeness limits, a webhook URL)
// goes through a Net of its own each time: a name's new addresses are seen, and nothing of a lookup stays open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentAddresses, withOwnNet } from '../../src/server/net-per-use.ts';
import type { ScanNet } from '../../src/net/index.ts';
import { NetError } from '../../src/net/types.ts';
import { a, startDnsServer, testConfig, type DnsServer } from '../net/local-servers.ts';

let dns: DnsServer;
/** Where moving.test points now. */
let address = '127.0.0.2';

beforeAll(async () => {
  dns = await startDnsServer((q) => (q.type === 'A' ? { answers: [a('moving.test', address)] } : { answers: [] }));
});
afterAll(() => dns?.close());

const config = () => testConfig({ DVS_DNS_SERVERS: dns.server, DVS_ALLOW_NETWORKS: '127.0.0.0/8' });
const addresses = (net: ScanNet) => net.resolve('moving.test').then((found) => found.map((f) => f.address));

describe('a Net for each use outside scans', () => {
  it("sees a name's addresses change between two uses", async () => {
    const cfg = config();
    address = '127.0.0.2';
    expect(await withOwnNet(cfg, addresses)).toEqual(['127.0.0.2']);
    address = '127.0.0.3';
    expect(await withOwnNet(cfg, addresses)).toEqual(['127.0.0.3']);
    address = '127.0.0.4';
    expect(await currentAddresses(cfg, 'moving.test')).toEqual(['127.0.0.4']);
    expect(await currentAddresses(cfg, 'nowhere.invalid')).toEqual([]);
  });

  it('is closed when the work ends, whether it succeeded or threw', async () => {
    const used: ScanNet[] = [];
    await withOwnNet(config(), async (net) => void used.push(net));
    await expect(
      withOwnNet(config(), async (net) => {
        used.push(net);
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    for (const net of used)
      await expect(net.request('https://moving.test/')).rejects.toSatisfy(
        (err) => err instanceof NetError && err.code === 'aborted',
      );
  });
});
