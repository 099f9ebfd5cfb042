// The http probe reads its home page as soon as the page arrives: the page's readers do not wait for the redirect
// and www chains, which on a distant site are the probe's longest (three hops on three connections).
import { describe, expect, it, vi } from 'vitest';
import { collectHttp } from '../../../plugins/http/index.ts';
import { notFoundPath } from '../../../plugins/http/urls.ts';
import type { Net } from '../../../src/net/types.ts';
import { fakeContext, fakeNet } from '../fake-net.ts';

describe('http probe schedule', () => {
  it("asks for the home page's readers while the www chain is still unanswered", async () => {
    const seen: string[] = [];
    const site = fakeNet({ '/': { status: 200, body: '<html><head></head></html>' } }, seen);
    let answerWww!: () => void;
    const wwwHeld = new Promise<void>((resolve) => (answerWww = resolve));
    const net: Net = {
      ...site,
      request: async (url, opts) => {
        if (new URL(url).hostname.startsWith('www.')) await wwwHeld;
        return site.request(url, opts);
      },
    };
    const probe = collectHttp('example.test', fakeContext(net, 'http', ['www', 'not_found']));
    await vi.waitFor(() => expect(seen).toContain(`https://example.test${notFoundPath('example.test')}`));
    expect(seen.some((url) => url.includes('www.'))).toBe(false);
    answerWww();
    const out = await probe;
    expect(out.www).toBeDefined();
    expect(out.not_found).toBeDefined();
  });
});
