// Preloaded (`node --import`) into the processes that run the MDN HTTP Observatory for bench/observatory.bench.ts:
// node:dns's lookup, which the Observatory's HTTP agents call for every connection, asks the fixture internet's
// resolver (DVS_DNS_SERVERS) for the name's AAAA and A records, as getaddrinfo asks the system's resolver, so the
// Observatory reaches the world's sites by their names and its DNS questions reach the world's count. The service
// under comparison has its own DNS client (src/net) and never calls node:dns.
import dns from 'node:dns';
import net from 'node:net';
import process from 'node:process';

const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 1 });
resolver.setServers([process.env.DVS_DNS_SERVERS]);

/** AAAA before A, as getaddrinfo orders a name with loopback addresses of both families (RFC 6724). */
async function addresses(hostname, family) {
  const ask = (type) =>
    (type === 'AAAA' ? resolver.resolve6(hostname) : resolver.resolve4(hostname)).then(
      (list) => list.map((address) => ({ address, family: type === 'AAAA' ? 6 : 4 })),
      () => [],
    );
  const [v6, v4] = await Promise.all([family === 4 ? [] : ask('AAAA'), family === 6 ? [] : ask('A')]);
  return [...v6, ...v4];
}

function worldLookup(hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'number' ? { family: options } : typeof options === 'object' ? options : {};
  const literal = net.isIP(hostname);
  const found = literal ? Promise.resolve([{ address: hostname, family: literal }]) : addresses(hostname, opts.family);
  found.then((list) => {
    if (list.length === 0) {
      const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
      done(err);
    } else if (opts.all) done(null, list);
    else done(null, list[0].address, list[0].family);
  });
}

dns.lookup = worldLookup;
