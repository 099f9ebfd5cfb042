// The network layer for what an instance does outside scans (a batch item's politeness lookup, a webhook
// delivery, the check of a webhook URL): a Net of its own for each use, closed after it.
import type { Config } from '../lib/config.ts';
import { createNet, type ScanNet } from '../net/index.ts';

/**
 * Runs `work` on a Net made for it, closed when it ends. A Net keeps every DNS answer it got and every pool it
 * opened until it is closed, as one scan should: one Net kept by the process would never see a name's
 * addresses change, and it held every name it was ever asked (about 30 KB each: the politeness lookups of a
 * 10,000-item batch grew each instance by some 250 MB).
 */
export async function withOwnNet<T>(config: Config, work: (net: ScanNet) => Promise<T>): Promise<T> {
  const net = createNet(config);
  try {
    return await work(net);
  } finally {
    await net.close();
  }
}

/** The addresses a name resolves to now; none when it does not resolve (a scan of it will say so). */
export const currentAddresses = (config: Config, name: string): Promise<string[]> =>
  withOwnNet(config, async (net) => (await net.resolve(name).catch(() => [])).map((a) => a.address));
