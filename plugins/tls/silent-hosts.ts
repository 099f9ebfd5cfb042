// A host that lets a connection or handshake run out its time limit is a fact learnt once. Every later attempt
// of the same probe run on that host fails at once with the same error instead of waiting out the limit again:
// the tls probe makes a few dozen attempts, and against a silent host they must not add up past the deadline.
import { NetError, type Net } from '../../src/net/types.ts';

export function failFastAfterSilence(net: Net): Net {
  const silent = new Map<string, NetError>();
  const note = (host: string) =>
    silent.set(
      host,
      silent.get(host) ?? new NetError('timeout', `${host} did not answer within ${net.requestTimeoutMs} ms`),
    );
  const guard = async <T>(host: string, op: () => Promise<T>): Promise<T> => {
    const known = silent.get(host);
    if (known) throw known;
    try {
      return await op();
    } catch (err) {
      if (err instanceof NetError && err.code === 'timeout') note(host);
      throw err;
    }
  };
  return {
    ...net,
    handshake: (url, opts) => guard(new URL(url).hostname, () => net.handshake(url, opts)),
    tls: (host, opts) => guard(host, () => net.tls(host, opts)),
    tcp: (host, port, opts) =>
      guard(host, async () => {
        const socket = await net.tcp(host, port, opts);
        // Raw exchanges time their reads on the socket itself: a read that times out marks the host too.
        socket.once('timeout', () => note(host));
        return socket;
      }),
  };
}
