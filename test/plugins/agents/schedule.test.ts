// The agents probe follows what a document names as soon as that document arrives: the MCP session does not wait
// for the MCP catalog, nor the servers a protected resource names for the site's own authorization metadata.
import { beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { useWorld, type SharedWorld } from '../../suite/world.ts';
import { createNet } from '../../../src/net/index.ts';
import type { Net } from '../../../src/net/types.ts';
import { loadConfig } from '../../../src/lib/config.ts';
import { provider } from '../../../plugins/agents/index.ts';

let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});

/** How long a held document waits for the request it should not be needed by, before answering anyway. */
const PATIENCE_MS = 3000;

/**
 * A Net that holds each answer in `held` (a path) until a request for its partner (a path) has been sent, and
 * says which answers had to give up waiting.
 */
function holding(net: Net, held: Record<string, string>): { net: Net; gaveUp: string[] } {
  const sent = new Set<string>();
  const gaveUp: string[] = [];
  const arrivals = new Map<string, () => void>();
  const arrived = (path: string) => new Promise<void>((resolve) => arrivals.set(path, resolve));
  const waits = new Map(Object.values(held).map((partner) => [partner, arrived(partner)]));
  return {
    gaveUp,
    net: {
      ...net,
      request: async (url, opts) => {
        const path = new URL(url).pathname;
        sent.add(path);
        arrivals.get(path)?.();
        const partner = held[path];
        if (partner !== undefined && !sent.has(partner)) {
          const timedOut = sleep(PATIENCE_MS).then(() => 'gave up' as const);
          if ((await Promise.race([waits.get(partner)!, timedOut])) === 'gave up') gaveUp.push(path);
        }
        return net.request(url, opts);
      },
    },
  };
}

describe('agents probe schedule', () => {
  it('talks to the MCP endpoint and follows named servers while sibling documents are unanswered', async () => {
    const { net, gaveUp } = holding(createNet(loadConfig(world.env)), {
      '/.well-known/mcp/catalog.json': '/mcp',
      '/.well-known/oauth-authorization-server': '/.well-known/oauth-authorization-server/auth',
    });
    const out = (await provider.collect('good.test', {
      net,
      signal: AbortSignal.timeout(20_000),
      observedAt: '2026-06-01T00:00:00.000Z',
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
      needs: (path) => path === 'agents.mcp' || path === 'agents.oauth' || /^agents\.(mcp|oauth)\./.test(path),
    })) as { mcp: { endpoint: { status: number } }; oauth: { named_servers: unknown[] } };
    expect(gaveUp).toEqual([]);
    expect(out.mcp.endpoint.status).toBe(200);
    expect(out.oauth.named_servers).toHaveLength(1);
  });
});
