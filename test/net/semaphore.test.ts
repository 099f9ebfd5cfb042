import { describe, it, expect } from 'vitest';
import { createSemaphore } from '../../src/net/semaphore.ts';
import { toNetError } from '../../src/net/errors.ts';

describe('semaphore', () => {
  it('grants at most `limit` slots and hands a released slot to the next waiter', async () => {
    const sem = createSemaphore(2);
    const first = await sem.acquire();
    const second = await sem.acquire();
    let thirdGranted = false;
    const third = sem.acquire().then((release) => {
      thirdGranted = true;
      return release;
    });
    await Promise.resolve();
    expect([sem.inFlight, thirdGranted]).toEqual([2, false]);
    first();
    first();
    const releaseThird = await third;
    expect([sem.inFlight, thirdGranted]).toEqual([2, true]);
    second();
    releaseThird();
    expect(sem.inFlight).toBe(0);
  });

  it('drops a waiter whose signal aborts, without losing the slot', async () => {
    const sem = createSemaphore(1);
    const held = await sem.acquire();
    const controller = new AbortController();
    const waiting = sem.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });
    held();
    expect(sem.inFlight).toBe(0);
    (await sem.acquire())();
    await expect(sem.acquire(AbortSignal.abort())).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('error mapping', () => {
  it('maps socket, undici and TLS codes and keeps the original code as detail', () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(toNetError(err('ECONNREFUSED'), 'x')).toMatchObject({ code: 'connect_refused', detail: 'ECONNREFUSED' });
    expect(toNetError(err('UND_ERR_HEADERS_OVERFLOW'), 'x')).toMatchObject({ code: 'headers_too_large' });
    expect(toNetError(err('CERT_HAS_EXPIRED'), 'x')).toMatchObject({ code: 'tls_error', detail: 'CERT_HAS_EXPIRED' });
    expect(toNetError(err('HPE_INVALID_CONSTANT'), 'x')).toMatchObject({ code: 'protocol_error' });
    expect(toNetError(err('toString'), 'x')).toMatchObject({ code: 'connect_error' });
    expect(toNetError(Object.assign(new Error('fetch failed'), { cause: err('ECONNRESET') }), 'x')).toMatchObject({
      code: 'connect_error',
      detail: 'ECONNRESET',
    });
  });
});
