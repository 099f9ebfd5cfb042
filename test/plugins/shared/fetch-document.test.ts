// The one document fetcher: what `published` means, the soft-404 comparison, redirect policies, memoisation
// and the URL a document names being reached on the probe's port.
import { describe, expect, it } from 'vitest';
import { DocumentFetcher, NOT_FOUND_PATH } from '../../../plugins/shared/fetch-document.ts';
import { NetError, type Net } from '../../../src/net/types.ts';
import { fakeContext, fakeNet, type FakeRequest, type Page } from '../fake-net.ts';

function fetcher(pages: Record<string, Page>, net?: Net) {
  const seen: string[] = [];
  const requests: FakeRequest[] = [];
  const f = new DocumentFetcher(fakeContext(net ?? fakeNet(pages, seen, requests), 'wellknown'), 'good.test');
  return { f, seen, requests };
}

const TEXT = { status: 200, body: 'User-agent: *\nAllow: /\n' };
const SHELL = { status: 200, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html>app</html>' };

describe('DocumentFetcher', () => {
  it('publishes a 2xx text body, and records the answer as facts', async () => {
    const { f } = fetcher({ '/robots.txt': TEXT });
    const opened = await f.open('/robots.txt');
    expect(opened.published).toBe(true);
    expect(opened.document).toEqual({
      url: 'https://good.test/robots.txt',
      status: 200,
      content_type: 'text/plain',
      charset: 'utf-8',
      bytes: 23,
      truncated: false,
      redirected_to: null,
      redirects: 0,
      error: null,
      body_is_html: false,
      soft_404: false,
      access_control_allow_origin: null,
    });
  });

  it('does not publish a miss, an empty body, an HTML page, or the site answer for a missing path', async () => {
    const { f } = fetcher({
      '/empty.txt': { status: 200, body: '' },
      '/page.txt': { ...SHELL, body: '<!DOCTYPE html><p>a page of its own' },
      '/llms.txt': { status: 200, body: 'catch-all' },
      [NOT_FOUND_PATH]: { status: 200, body: 'catch-all' },
      '/down.txt': { status: 503, body: 'busy' },
    });
    const facts = async (path: string) => {
      const { published, document } = await f.open(path);
      return { published, status: document.status, html: document.body_is_html, soft: document.soft_404 };
    };
    expect(await facts('/missing.txt')).toEqual({ published: false, status: 404, html: false, soft: false });
    expect(await facts('/empty.txt')).toEqual({ published: false, status: 200, html: false, soft: false });
    expect(await facts('/page.txt')).toEqual({ published: false, status: 200, html: true, soft: false });
    expect(await facts('/llms.txt')).toEqual({ published: false, status: 200, html: false, soft: true });
    expect(await facts('/down.txt')).toEqual({ published: false, status: 503, html: false, soft: false });
  });

  it('publishes when the soft-404 comparison cannot be made, and turns a network failure into a fact', async () => {
    const { f } = fetcher({
      '/robots.txt': TEXT,
      [NOT_FOUND_PATH]: new NetError('timeout', 'slow'),
      '/refused': new NetError('connect_refused', 'no'),
    });
    expect(await f.open('/robots.txt')).toMatchObject({ published: true, document: { soft_404: null } });
    expect(await f.open('/refused')).toMatchObject({
      published: false,
      exchange: null,
      document: { status: null, error: 'connect_refused', body_is_html: null, soft_404: null },
    });
  });

  it('rethrows what tells nothing about the site (the scan was aborted)', async () => {
    const { f } = fetcher({ '/robots.txt': new NetError('aborted', 'scan over') });
    await expect(f.open('/robots.txt')).rejects.toThrow('scan over');
  });

  it('follows redirects unless asked to record them, and names an origin on every request', async () => {
    const { f, requests } = fetcher({
      '/security.txt': { status: 301, redirectTo: '/.well-known/security.txt' },
      '/.well-known/security.txt': { status: 200, body: 'Contact: mailto:a@good.test\n' },
    });
    expect(await f.open('/security.txt')).toMatchObject({
      published: true,
      document: { status: 200, redirects: 1, redirected_to: 'https://good.test/.well-known/security.txt' },
    });
    expect(await f.open('/security.txt', { redirects: 'record', accept: 'text/plain' })).toMatchObject({
      published: false,
      document: { status: 301, redirects: 0, redirected_to: null },
    });
    const recorded = requests.find((r) => r.opts.followRedirects === false)!;
    expect(recorded.opts.headers).toEqual({ origin: 'https://probe.invalid', accept: 'text/plain' });
  });

  it('fetches each URL once per options, and the missing-path reference once', async () => {
    const { f, seen } = fetcher({ '/robots.txt': TEXT });
    await Promise.all([f.open('/robots.txt'), f.open('/robots.txt'), f.open('/llms.txt')]);
    await f.open('/robots.txt', { maxBytes: 10 });
    expect(seen.sort()).toEqual([
      `https://good.test${NOT_FOUND_PATH}`,
      'https://good.test/llms.txt',
      'https://good.test/robots.txt',
      'https://good.test/robots.txt',
    ]);
  });

  it('reaches URLs on the probe port when the site is served elsewhere (the fixture world)', () => {
    const net = { ...fakeNet({}), ports: { http: 8080, https: 8443 } } as Net;
    const { f } = fetcher({}, net);
    expect(f.target('/robots.txt')).toBe('https://good.test:8443/robots.txt');
    expect(f.target('https://cdn.good.test/sitemap.xml')).toBe('https://cdn.good.test:8443/sitemap.xml');
    expect(f.target('https://good.test:9000/x')).toBe('https://good.test:9000/x');
  });
});
