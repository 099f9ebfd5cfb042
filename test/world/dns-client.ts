// A raw DNS client for the world's own tests: one query over UDP or TCP with dns-packet, no retries, so what
// the server put on the wire is exactly what the test sees.
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { DecodedPacket, Packet } from 'dns-packet';

export interface QueryOptions {
  transport?: 'udp' | 'tcp';
  /** Advertise EDNS with this UDP payload size. */
  edns?: number;
  dnssecOk?: boolean;
  /** Give up after this long and resolve null (a server that never answers). */
  timeoutMs?: number;
}

export function queryPacket(name: string, type: string, opts: QueryOptions = {}): Packet {
  return {
    type: 'query',
    id: Math.floor(Math.random() * 65535),
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: type as 'A', class: 'IN' }],
    additionals:
      opts.edns === undefined
        ? []
        : [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: opts.edns,
              flags: opts.dnssecOk ? dnsPacket.DNSSEC_OK : 0,
            } as never,
          ],
  };
}

export async function query(
  port: number,
  name: string,
  type: string,
  opts: QueryOptions = {},
): Promise<DecodedPacket | null> {
  const packet = dnsPacket.encode(queryPacket(name, type, opts));
  const timeoutMs = opts.timeoutMs ?? 2000;
  return opts.transport === 'tcp' ? queryTcp(port, packet, timeoutMs) : queryUdp(port, packet, timeoutMs);
}

function queryUdp(port: number, packet: Buffer, timeoutMs: number): Promise<DecodedPacket | null> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket('udp4');
    const timer = setTimeout(() => done(null), timeoutMs);
    const done = (result: DecodedPacket | null, err?: Error) => {
      clearTimeout(timer);
      sock.close();
      if (err) reject(err);
      else resolve(result);
    };
    sock.on('message', (msg) => done(dnsPacket.decode(msg)));
    sock.on('error', (err) => done(null, err));
    sock.send(packet, port, '127.0.0.1');
  });
}

function queryTcp(port: number, packet: Buffer, timeoutMs: number): Promise<DecodedPacket | null> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => done(null), timeoutMs);
    const done = (result: DecodedPacket | null, err?: Error) => {
      clearTimeout(timer);
      sock.destroy();
      if (err) reject(err);
      else resolve(result);
    };
    sock.on('connect', () =>
      sock.write(Buffer.concat([Buffer.from([packet.length >> 8, packet.length & 255]), packet])),
    );
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0))
        done(dnsPacket.decode(buf.subarray(2, 2 + buf.readUInt16BE(0))));
    });
    sock.on('error', (err) => done(null, err));
  });
}

export function rcodeOf(p: DecodedPacket): string {
  return (p as DecodedPacket & { rcode: string }).rcode;
}
