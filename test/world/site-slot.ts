// One site's listener on its address for one scheme. It hands each connection to the site's current server, so a
// site can change while the world runs (see control.ts); with no server it stops listening, so connections are
// refused there as at an address where nothing listens.
import net from 'node:net';

/** A server that takes connections accepted elsewhere (Node's HTTP, HTTPS and HTTP/2 servers all do). */
export interface ConnectionTaker {
  emit(event: 'connection', socket: net.Socket): boolean;
  closeAllConnections(): void;
}

export class SiteSlot extends net.Server {
  private current: ConnectionTaker | undefined;

  constructor(
    readonly host: string,
    initial: ConnectionTaker | undefined,
  ) {
    super();
    this.current = initial;
    this.on('connection', (socket: net.Socket) => {
      if (this.current) this.current.emit('connection', socket);
      else socket.destroy();
    });
  }

  get serving(): boolean {
    return this.current !== undefined;
  }

  /** Serves `next` from now on (on `port`), ending the connections of the server it replaces. */
  async serve(next: ConnectionTaker | undefined, port: number): Promise<void> {
    if (next && !this.listening) {
      await new Promise<void>((resolve, reject) => {
        this.once('error', reject);
        this.listen({ port, host: this.host, exclusive: true }, () => {
          this.off('error', reject);
          resolve();
        });
      });
    }
    if (!next && this.listening) await new Promise<void>((resolve) => this.close(() => resolve()));
    const previous = this.current;
    this.current = next;
    previous?.closeAllConnections();
  }

  closeAllConnections(): void {
    this.current?.closeAllConnections();
  }
}
