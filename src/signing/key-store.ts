// The signing key of a running service, as the data directory holds it now. `dvs keys rotate` replaces
// signing-key.json by a rename while the service runs; every signature asks this store for the key, and the
// store re-reads the file when its identity (inode, size, mtime) changed, so the new key signs from the next
// certificate, response or tree head on, and the JWK set gains the retired key at the same moment. A stat is
// a few microseconds, far below the cost of a signature made anew; a response signature reused within its
// second (response-signing.ts) costs less than the stat, so it asks `settled()` instead: the key in memory
// for as long as a watch on the data directory has seen no change to the key file since the last stat.
import { statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../lib/log.ts';
import { buildJwks, loadRetiredKeys, type ServiceJwks } from './jwks.ts';
import { loadSigningKey, SIGNING_KEY_FILE, type SigningKey } from './keys.ts';

/** The key to sign with now, and the JWK set that goes with it. */
export interface SigningKeySource {
  current(): Promise<SigningKey>;
  jwks(): Promise<ServiceJwks>;
  /**
   * The key `current()` gave last, while nothing can have changed it since; null when something may have (or
   * changes cannot be seen), and then `current()` is the answer.
   */
  settled?(): SigningKey | null;
}

interface Loaded {
  stamp: string;
  key: SigningKey;
  jwks: ServiceJwks;
}

export class SigningKeyStore implements SigningKeySource {
  private loaded: Loaded | null = null;
  private reloading: Promise<Loaded> | null = null;
  /** The watch on the data directory, or null where the platform offers none (then every call stats). */
  private watcher: FSWatcher | null = null;
  /** Changes to the key file the watch has seen, and how many of them the loaded key accounts for. */
  private changes = 0;
  private accountedFor = -1;

  private constructor(
    private readonly dataDir: string,
    private readonly log?: Logger,
  ) {}

  /** Loads (or creates) the data directory's signing key; a key that cannot be read stops the start. */
  static async open(dataDir: string, log?: Logger): Promise<SigningKeyStore> {
    const store = new SigningKeyStore(dataDir, log);
    store.loaded = await store.load();
    // Watched from here on: the first settled() answer waits for a stat made after the watch began.
    store.watch();
    return store;
  }

  settled(): SigningKey | null {
    return this.watcher && this.accountedFor === this.changes ? this.loaded!.key : null;
  }

  /** Stops watching the data directory. */
  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  private watch(): void {
    const noteChange = (file: string | null) => {
      if (file === null || file === SIGNING_KEY_FILE) this.changes++;
    };
    try {
      // Not persistent: the watch alone never keeps a process running.
      this.watcher = watch(this.dataDir, { persistent: false }, (_event, file) => noteChange(file));
    } catch (err) {
      this.log?.warn({ err: (err as Error).message }, 'cannot watch the signing key file; checking it at every use');
      return;
    }
    this.watcher.on('error', (err) => {
      this.log?.warn({ err: err.message }, 'the watch on the signing key file failed; checking it at every use');
      this.close();
    });
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
    const changes = this.changes;
    let stamp: string;
    try {
      stamp = this.stamp();
    } catch {
      // The file is briefly absent only if someone moved it by hand: keep signing with the key in memory.
      return loaded;
    }
    if (stamp === loaded.stamp) {
      this.accountedFor = changes;
      return loaded;
    }
    this.reloading ??= this.load()
      .then((next) => {
        if (next.key.kid !== loaded.key.kid)
          this.log?.info({ retired: loaded.key.kid, current: next.key.kid }, 'signing key rotated: reloaded');
        this.loaded = next;
        this.accountedFor = changes;
        return next;
      })
      .catch((err: unknown) => {
        // A half-edited or broken file must not stop the service from signing: the old key stays in use.
        this.log?.warn({ err: (err as Error).message }, 'signing key file changed but cannot be read');
        this.loaded = { ...loaded, stamp };
        this.accountedFor = changes;
        return this.loaded;
      })
      .finally(() => (this.reloading = null));
    return this.reloading;
  }
}
