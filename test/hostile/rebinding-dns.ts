// A rebinding resolver for the hostile-server tests: in front of the world's resolver, it rewrites the A
// answers of one name, alternating an allowed address and a forbidden one with TTL 0, as an attacker's name
// server does to slip a private address past a check made on an earlier answer. Every other question goes to
// the world's resolver unchanged (UDP only: the rewritten zone's answers are small).
import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';

export interface RebindingDns {
  /** host:port for DVS_DNS_SERVERS. */
  server: string;
  /** The A answers given so far for the rebinding name, in order. */
  readonly answered: readonly string[];
  close(): Promise<void>;
}

export async function startRebindingDns(opts: {
  name: string;
  addresses: readonly [string, string];
  upstreamPort: number;
}): Promise<RebindingDns> {
  const answered: string[] = [];
  const socket = dgram.createSocket('udp4');
  const relays = new Set<dgram.Socket>();

  socket.on('message', (msg, rinfo) => {
    let packet: dnsPacket.DecodedPacket;
    try {
      packet = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const q = packet.questions?.[0];
    if (q && q.type === 'A' && q.name.toLowerCase().replace(/\.$/, '') === opts.name) {
      const address = opts.addresses[answered.length % 2]!;
      answered.push(address);
      const reply = dnsPacket.encode({
        type: 'response',
        id: packet.id,
        flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE,
        questions: [q],
        answers: [{ type: 'A', name: q.name, ttl: 0, class: 'IN', data: address }],
      });
      socket.send(reply, rinfo.port, rinfo.address);
      return;
    }
    const relay = dgram.createSocket('udp4');
    relays.add(relay);
    const done = (): void => {
      relays.delete(relay);
      relay.close();
    };
    relay.on('error', done);
    relay.once('message', (answer) => {
      socket.send(answer, rinfo.port, rinfo.address);
      done();
    });
    relay.send(msg, opts.upstreamPort, '127.0.0.1');
  });

  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    answered,
    async close() {
      for (const relay of relays) relay.close();
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
