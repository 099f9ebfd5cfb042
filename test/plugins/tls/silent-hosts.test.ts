import { describe, expect, it } from 'vitest';
import { failFastAfterSilence } from '../../../plugins/tls/silent-hosts.ts';
import { NetError, type Net } from '../../../src/net/types.ts';

function fakeNet(fail: (host: string) => NetError | null) {
  const calls: string[] = [];
  const net = {
    requestTimeoutMs: 1500,
    tls: async (host: string) => {
      calls.push(host);
      const err = fail(host);
      if (err) throw err;
      return {} as Awaited<ReturnType<Net['tls']>>;
    },
  } as unknown as Net;
  return { net, calls };
}

describe('failFastAfterSilence', () => {
  it('fails later attempts on a host at once after one timed out', async () => {
    const { net, calls } = fakeNet((h) => (h === 'silent.test' ? new NetError('timeout', 'no answer') : null));
    const guarded = failFastAfterSilence(net);
    await expect(guarded.tls('silent.test')).rejects.toMatchObject({ code: 'timeout' });
    await expect(guarded.tls('silent.test')).rejects.toMatchObject({ code: 'timeout' });
    await guarded.tls('other.test');
    expect(calls).toEqual(['silent.test', 'other.test']);
  });

  it('keeps trying after a refusal, which is an answer', async () => {
    const { net, calls } = fakeNet(() => new NetError('tls_error', 'alert'));
    const guarded = failFastAfterSilence(net);
    await expect(guarded.tls('strict.test')).rejects.toMatchObject({ code: 'tls_error' });
    await expect(guarded.tls('strict.test')).rejects.toMatchObject({ code: 'tls_error' });
    expect(calls).toEqual(['strict.test', 'strict.test']);
  });
});
