// A Full Validation of the good site sends each GET question once: the home page, which several probes read
// with the same request headers, and the soft-404 reference path, which every document fetcher compares with.
// What probes ask is recorded at the Net's door; what went on the wire is the scan's own trace (one entry per hop).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { providers } from '../../plugins/index.ts';
import { NOT_FOUND_PATH } from '../../plugins/shared/fetch-document.ts';
import { scan } from '../../src/engine/observe-and-judge.ts';
import { loadConfig } from '../../src/lib/config.ts';
import { createNet } from '../../src/net/index.ts';
import type { HttpRequestOptions, Net } from '../../src/net/types.ts';
import { withinNet } from '../../src/service/scanner.ts';
import { catalogue } from '../suite/ruleset.ts';
import { useWorld, type SharedWorld } from '../suite/world.ts';

const quiet = { debug() {}, info() {}, warn() {} };
let world: SharedWorld;
beforeAll(async () => {
  world = await useWorld();
});

interface Asked {
  url: string;
  opts: HttpRequestOptions;
}

/** A full scan of good.test: what the probes asked for, and the HTTP hops the trace saw on the wire. */
async function fullScan() {
  const config = loadConfig({ ...world.env, DVS_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'dvs-requests-')) });
  const net = createNet(config, { trace: true });
  const asked: Asked[] = [];
  const counted: Net = { ...net, request: (url, opts = {}) => (asked.push({ url, opts }), net.request(url, opts)) };
  try {
    const { report } = await scan('good.test', 'full', {
      ruleset: catalogue(),
      providers: withinNet(net, providers),
      net: counted,
      deadlineMs: 60_000,
      log: quiet,
    });
    const first = (await net.resolve('good.test'))[0]!.address;
    const sent = net.trace().filter((t) => t.kind === 'http');
    return { report, asked, sent, first };
  } finally {
    await net.close();
  }
}

/** What a GET asks besides its URL: the request headers, decoding, redirects and the address it goes to. */
const question = (a: Asked, first: string): string =>
  JSON.stringify([
    Object.entries(a.opts.headers ?? {})
      .map(([name, value]) => `${name.toLowerCase()}: ${value}`)
      .sort(),
    a.opts.decompress === true,
    a.opts.followRedirects === true,
    a.opts.address?.address ?? first,
  ]);

it('sends the home page once per set of request headers, and the soft-404 reference once', async () => {
  const { report, asked, sent, first } = await fullScan();
  expect(report.verdict).toBe('CERTIFIED');
  const home = world.url('good', '/');
  const gets = (url: string) => asked.filter((a) => a.url === url && (a.opts.method ?? 'GET') === 'GET');
  const onWire = (url: string) => sent.filter((t) => t.target === `GET ${url}`).length;

  const homeGets = gets(home);
  const fresh = homeGets.filter((a) => a.opts.fresh === true).length;
  const questions = new Set(homeGets.filter((a) => a.opts.fresh !== true).map((a) => question(a, first)));
  // Several probes ask the same question of the home page (the redirect chains end there, reachability's
  // first address is the one the others go to): each is sent once, and only the timing samples are repeated.
  expect(homeGets.length - fresh).toBeGreaterThan(questions.size);
  expect(onWire(home)).toBe(questions.size + fresh);

  const notFound = `${world.url('good', NOT_FOUND_PATH)}`;
  expect(gets(notFound).length).toBeGreaterThanOrEqual(2);
  expect(onWire(notFound)).toBe(1);
});
