// What one client connection may make the service hold (issue 31 item 1). Node's HTTP server parses every
// pipelined request a chunk carries and runs each handler at once, buffering every answer until the ones before
// it are sent: 100 pipelined requests for a 690 kB page, never read, held 62 MiB per connection for good. Here a
// connection's requests run one after another, the next only once the previous answer has left Node's write
// buffer; past `maxPipelined` waiting requests the connection is closed, and a connection whose unsent output
// does not drain within `drainMs` is closed too, which frees what it held.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Requests one connection may have waiting behind the one being answered. */
  maxPipelined: number;
  /** How long a connection's unsent output may stay above the socket's high-water mark (ms). */
  drainMs: number;
}

interface Connection {
  /** Requests received and not yet handed to the handler, oldest first. */
  readonly waiting: [IncomingMessage, ServerResponse][];
  /** A request is being answered. */
  busy: boolean;
  /** Armed while the socket's output waits for 'drain'. */
  drainTimer: NodeJS.Timeout | null;
}

export function guardConnections(handler: RequestListener, limits: ConnectionLimits): RequestListener {
  const connections = new WeakMap<Socket, Connection>();

  function connectionOf(socket: Socket): Connection {
    let connection = connections.get(socket);
    if (connection === undefined) {
      const made: Connection = { waiting: [], busy: false, drainTimer: null };
      socket.once('close', () => {
        made.waiting.length = 0;
        if (made.drainTimer) clearTimeout(made.drainTimer);
      });
      connections.set(socket, made);
      connection = made;
    }
    return connection;
  }

  /** Waits for the socket's output to drain, or closes the connection when it does not within the limit. */
  function awaitDrain(socket: Socket, connection: Connection): void {
    if (connection.drainTimer) return;
    connection.drainTimer = setTimeout(() => socket.destroy(), limits.drainMs).unref();
    socket.once('drain', () => {
      clearTimeout(connection.drainTimer!);
      connection.drainTimer = null;
      next(socket, connection);
    });
  }

  function next(socket: Socket, connection: Connection): void {
    if (connection.busy || socket.destroyed) return;
    if (socket.writableNeedDrain) return awaitDrain(socket, connection);
    const request = connection.waiting.shift();
    if (request === undefined) return;
    const [req, res] = request;
    connection.busy = true;
    // 'close' follows the end of every response, sent or cut off.
    res.once('close', () => {
      connection.busy = false;
      if (socket.writableNeedDrain) awaitDrain(socket, connection);
      else next(socket, connection);
    });
    handler(req, res);
  }

  return (req, res) => {
    const socket = req.socket;
    const connection = connectionOf(socket);
    if (connection.waiting.length >= limits.maxPipelined) {
      socket.destroy();
      return;
    }
    connection.waiting.push([req, res]);
    next(socket, connection);
  };
}
