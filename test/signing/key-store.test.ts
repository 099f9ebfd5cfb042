// The key store of a running service: it signs with whatever signing-key.json holds now, re-reading it (and the
// retired keys) only when the file changed, and keeps the key in memory when a changed file cannot be read.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SigningKeyStore } from '../../src/signing/key-store.ts';
import { rotateSigningKey } from '../../src/signing/keys.ts';
import { tempDir } from './fixtures.ts';

describe('SigningKeyStore', () => {
  it('creates the first key, then hands over the rotated key and the JWK set with the retired one', async () => {
    const dataDir = tempDir();
    const store = await SigningKeyStore.open(dataDir);
    const first = await store.current();
    expect(first.kid).toBe('service-signing-key-v1');
    expect(await store.current()).toBe(first);
    await rotateSigningKey(dataDir);
    expect((await store.current()).kid).toBe('service-signing-key-v2');
    expect((await store.jwks()).keys.map((k) => k.kid)).toEqual(['service-signing-key-v2', 'service-signing-key-v1']);
  });

  it('keeps signing with the key in memory when the changed file cannot be read, and says so', async () => {
    const dataDir = tempDir();
    const warnings: unknown[] = [];
    const log = { debug: () => undefined, info: () => undefined, warn: (o: unknown) => void warnings.push(o) };
    const store = await SigningKeyStore.open(dataDir, log);
    const key = await store.current();
    writeFileSync(path.join(dataDir, 'signing-key.json'), '{ half written');
    expect(await store.current()).toBe(key);
    expect(warnings).toHaveLength(1);
    expect(await store.current()).toBe(key);
    expect(warnings).toHaveLength(1);
  });

  it('answers settled() from memory until the watch sees the key file change, then only after a fresh look', async () => {
    const dataDir = tempDir();
    const store = await SigningKeyStore.open(dataDir);
    try {
      expect(store.settled()).toBeNull();
      const first = await store.current();
      expect(store.settled()).toBe(first);
      await rotateSigningKey(dataDir);
      await vi.waitFor(() => expect(store.settled()).toBeNull());
      const second = await store.current();
      expect(second.kid).toBe('service-signing-key-v2');
      expect(store.settled()).toBe(second);
    } finally {
      store.close();
    }
  });
});
