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
      dnsPacket.RECURSION_AVAILABLE | ((query.flags ?? 0) & (dnsPacket.RECURSION_DESIRED | dnsPacket.CHECKING_DISABLED));
    const response: Packet = {
      type: 'response',
      id: query.id ?? 0,
      flags,
      questions: query.questions ?? [],
      answers: [],
      authorities: [],
      additionals: opt
        ? [{ type: 'OPT', name: '.', udpPayloadSize: OUR_UDP_PAYLOAD, flags: opt.flags & dnsPacket.DNSSEC_OK } as unknown as Answer]
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
    return dnsPacket.encode({ ...response, flags: response.flags! | dnsPacket.TRUNCATED_RESPONSE, answers: [], authorities: [] });
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

async function bindUdp(socket: dgram.Socket, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  return socket.address().port;
}

async function listenTcp(server: net.Server, host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startDnsServer(respond: Responder, host = '127.0.0.1', attempts = 10): Promise<DnsServer> {
  const sockets = new Set<net.Socket>();
  const tcp = net.createServer((sock) => {
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
  });

  for (let attempt = 1; ; attempt++) {
    const udp = dgram.createSocket('udp4');
    udp.on('message', (msg, rinfo) => {
      const query = decode(msg);
      const answer = query && respond(query, 'udp');
      if (answer) udp.send(answer, rinfo.port, rinfo.address);
    });
    const port = await bindUdp(udp, host);
    try {
      // The TCP side must share the UDP port; another process may hold it, so try a fresh one.
      await listenTcp(tcp, host, port);
    } catch (err) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < attempts) continue;
      throw err;
    }
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
}
