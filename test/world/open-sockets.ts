// The sockets a test server has accepted and not yet seen close, so that stopping the server ends them: close()
// alone waits for every open connection, and a kept-alive client would hold the stop.
import type net from 'node:net';

/** Tracks `server`'s open connections; the function returned destroys them all. */
export function trackSockets(server: net.Server): () => void {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
}
