// The world's resolver: UDP and TCP on one 127.0.0.1 port, answering from the zones like a recursive resolver
// would (RA set, AD when the zone says so), with EDNS and UDP truncation as real clients meet them.
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { DecodedPacket, Packet, Answer, OptAnswer } from 'dns-packet';
import { RCODE, type Zones } from './zones.ts';

export interface DnsServer {
  host: string;
  port: number;
  close(): Promise<void>;
}

/** What a server does with one query: the response to send, or null to stay silent. */
type Responder = (query: DecodedPacket, transport: 'udp' | 'tcp') => Buffer | null;

const CLASSIC_UDP_LIMIT = 512;
const OUR_UDP_PAYLOAD = 1232;

function udpLimit(query: DecodedPacket): number {
  const opt = query.additionals?.find((a): a is OptAnswer => a.type === 'OPT');
  return opt ? Math.max(CLASSIC_UDP_LIMIT, opt.udpPayloadSize) : CLASSIC_UDP_LIMIT;
}

/** Answers from the zones. */
export function zoneResponder(zones: Zones): Responder {
  return (query, transport) => {
    const opt = query.additionals?.find((a): a is OptAnswer => a.type === 'OPT');
    const flags =
      dnsPacket.RECURSION_AVAILABLE |
      ((query.flags ?? 0) & (dnsPacket.RECURSION_DESIRED | dnsPacket.CHECKING_DISABLED));
    const response: Packet = {
      type: 'response',
      id: query.id ?? 0,
      flags,
      questions: query.questions ?? [],
      answers: [],
      authorities: [],
      additionals: opt
        ? [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: OUR_UDP_PAYLOAD,
              flags: opt.flags & dnsPacket.DNSSEC_OK,
            } as unknown as Answer,
          ]
        : [],
    };
    const question = query.questions?.[0];
    const opcode = (query as DecodedPacket & { opcode?: string }).opcode;
    if (opcode !== 'QUERY') response.flags = flags | RCODE.NOTIMP;
    else if (!question || query.questions!.length !== 1) response.flags = flags | RCODE.FORMERR;
    else {
      const result = zones.lookup(question.name, question.type);
      if (result.kind === 'drop') return null;
      response.flags = flags | result.rcode | (result.ad ? dnsPacket.AUTHENTIC_DATA : 0);
      response.answers = result.answers as unknown as Answer[];
      response.authorities = result.authorities as unknown as Answer[];
    }
    const wire = dnsPacket.encode(response);
    if (transport === 'tcp' || wire.length <= udpLimit(query)) return wire;
    // Too big for this UDP exchange: say so with TC and let the client retry over TCP.
    return dnsPacket.encode({
      ...response,
      flags: response.flags | dnsPacket.TRUNCATED_RESPONSE,
      answers: [],
      authorities: [],
    });
  };
}

/** Accepts queries on UDP and TCP and never answers: a resolver that times out. */
export const silentResponder: Responder = () => null;

function decode(msg: Buffer): DecodedPacket | null {
  try {
    const packet = dnsPacket.decode(msg);
    return packet.type === 'query' ? packet : null;
  } catch {
    return null;
  }
}

/** Binds a socket or server on `port` of `host`; resolves with the port bound, rejects with the bind error. */
function bindOne(
  bind: (port: number, done: () => void) => void,
  target: NodeJS.EventEmitter,
  port: number,
  address: () => number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    target.once('error', reject);
    bind(port, () => {
      target.off('error', reject);
      resolve(address());
    });
  });
}

/** How often a port pair is tried before giving up: each try fails only if another socket holds the number. */
const PAIR_ATTEMPTS = 100;

/**
 * A UDP socket and a TCP server on one port number of `host`, as a DNS server needs them. The TCP side takes a
 * free port first, then UDP must get the same number; any other socket on the machine may hold it (a client's
 * ephemeral port), so the pair is tried anew with fresh sockets until both bind.
 */
export async function listenUdpAndTcp(
  host: string,
  make: () => { udp: dgram.Socket; tcp: net.Server },
): Promise<{ udp: dgram.Socket; tcp: net.Server; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const { udp, tcp } = make();
    const port = await bindOne(
      (p, done) => tcp.listen({ port: p, host, exclusive: true }, done),
      tcp,
      0,
      () => (tcp.address() as net.AddressInfo).port,
    );
    try {
      await bindOne(
        (p, done) => udp.bind(p, host, done),
        udp,
        port,
        () => udp.address().port,
      );
      return { udp, tcp, port };
    } catch (err) {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      udp.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= PAIR_ATTEMPTS) throw err;
    }
  }
}

export async function startDnsServer(respond: Responder, host = '127.0.0.1'): Promise<DnsServer> {
  const sockets = new Set<net.Socket>();
  const serveTcp = (sock: net.Socket): void => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => sock.destroy());
    let pending = Buffer.alloc(0);
    sock.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const msg = pending.subarray(2, 2 + pending.readUInt16BE(0));
        pending = pending.subarray(2 + msg.length);
        const query = decode(msg);
        if (!query) return sock.destroy();
        const answer = respond(query, 'tcp');
        if (answer) sock.write(Buffer.concat([Buffer.from([answer.length >> 8, answer.length & 255]), answer]));
      }
    });
  };
  const { udp, tcp, port } = await listenUdpAndTcp(host, () => {
    const socket = dgram.createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      const query = decode(msg);
      const answer = query && respond(query, 'udp');
      if (answer) socket.send(answer, rinfo.port, rinfo.address);
    });
    return { udp: socket, tcp: net.createServer(serveTcp) };
  });
  return {
    host,
    port,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}
