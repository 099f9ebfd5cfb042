// The signing key of a running service, as the data directory holds it now. `dvs keys rotate` replaces
// signing-key.json by a rename while the service runs; every signature asks this store for the key, and the
// store re-reads the file when its identity (inode, size, mtime) changed, so the new key signs from the next
// certificate, response or tree head on, and the JWK set gains the retired key at the same moment. A stat is
// a few microseconds, far below the cost of the signature it precedes, and needs no watcher or signal.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../lib/log.ts';
import { buildJwks, loadRetiredKeys, type ServiceJwks } from './jwks.ts';
import { loadSigningKey, SIGNING_KEY_FILE, type SigningKey } from './keys.ts';

/** The key to sign with now, and the JWK set that goes with it. */
export interface SigningKeySource {
  current(): Promise<SigningKey>;
  jwks(): Promise<ServiceJwks>;
}

interface Loaded {
  stamp: string;
  key: SigningKey;
  jwks: ServiceJwks;
}

export class SigningKeyStore implements SigningKeySource {
  private loaded: Loaded | null = null;
  private reloading: Promise<Loaded> | null = null;

  private constructor(
    private readonly dataDir: string,
    private readonly log?: Logger,
  ) {}

  /** Loads (or creates) the data directory's signing key; a key that cannot be read stops the start. */
  static async open(dataDir: string, log?: Logger): Promise<SigningKeyStore> {
    const store = new SigningKeyStore(dataDir, log);
    store.loaded = await store.load();
    return store;
  }

  async current(): Promise<SigningKey> {
    return (await this.fresh()).key;
  }

  async jwks(): Promise<ServiceJwks> {
    return (await this.fresh()).jwks;
  }

  private stamp(): string {
    const s = statSync(path.join(this.dataDir, SIGNING_KEY_FILE));
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  }

  private async load(): Promise<Loaded> {
    // The first read creates the file on a first start; a file replaced while it was read is read again.
    await loadSigningKey(this.dataDir);
    for (;;) {
      const stamp = this.stamp();
      const key = await loadSigningKey(this.dataDir);
      if (stamp === this.stamp()) return { stamp, key, jwks: buildJwks(key.publicJwk, loadRetiredKeys(this.dataDir)) };
    }
  }

  private async fresh(): Promise<Loaded> {
    const loaded = this.loaded!;
    let stamp: string;
    try {
      stamp = this.stamp();
    } catch {
      // The file is briefly absent only if someone moved it by hand: keep signing with the key in memory.
      return loaded;
    }
    if (stamp === loaded.stamp) return loaded;
    this.reloading ??= this.load()
      .then((next) => {
        if (next.key.kid !== loaded.key.kid)
          this.log?.info({ retired: loaded.key.kid, current: next.key.kid }, 'signing key rotated: reloaded');
        this.loaded = next;
        return next;
      })
      .catch((err: unknown) => {
        // A half-edited or broken file must not stop the service from signing: the old key stays in use.
        this.log?.warn({ err: (err as Error).message }, 'signing key file changed but cannot be read');
        this.loaded = { ...loaded, stamp };
        return this.loaded;
      })
      .finally(() => (this.reloading = null));
    return this.reloading;
  }
}
